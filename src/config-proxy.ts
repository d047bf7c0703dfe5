/**
 * REGWATCH_WEB_TRUST_PROXY: which proxies in front of the console are believed when they name the
 * client in X-Forwarded-For: none, or the proxies' addresses and networks. Never "every hop" (the
 * leftmost entry of that header is whatever the client wrote) and never a hop count (it cannot
 * tell the proxy from a client that connects directly and writes the header itself; Fastify 5
 * treats a number as trusting no one). Pure: config-schema.ts turns a problem into the variable's
 * error (exit 78).
 */
import net from "node:net";

/** false: no proxy; else the proxies' addresses, networks (CIDR) and range names, for Fastify's trustProxy. */
export type TrustProxy = false | string[];

/** Names proxy-addr (Fastify's trustProxy) knows for whole ranges. */
const RANGE_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

const INSTEAD =
  "name the proxies instead, as a comma list of their addresses or networks (e.g. 10.0.0.5, 10.0.0.0/8, loopback)";

export function parseTrustProxy(
  raw: string,
): { ok: true; value: TrustProxy } | { ok: false; problem: string } {
  const text = raw.trim();
  if (/^(false|no|0|)$/i.test(text)) return { ok: true, value: false };
  if (/^(true|yes)$/i.test(text)) {
    return {
      ok: false,
      problem: `must not be true (the client writes the leftmost X-Forwarded-For entry, so every attempt could name a new address): ${INSTEAD}`,
    };
  }
  if (/^\d+$/.test(text)) {
    return {
      ok: false,
      problem: `must not be a hop count (a client that connects directly could write the header itself): ${INSTEAD}`,
    };
  }
  const entries = text
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "");
  const bad = entries.filter((entry) => !isProxyEntry(entry));
  if (bad.length > 0) {
    const named = bad.map((b) => JSON.stringify(b)).join(", ");
    return {
      ok: false,
      problem: `must ${INSTEAD.replace(/^name the proxies instead/, "name the proxies")}; ${named} is not one`,
    };
  }
  return { ok: true, value: entries };
}

function isProxyEntry(entry: string): boolean {
  if (RANGE_NAMES.has(entry)) return true;
  const [address, prefix, extra] = entry.split("/");
  const family = net.isIP(address ?? "");
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}
