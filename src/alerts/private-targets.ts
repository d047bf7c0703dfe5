/**
 * Alert targets stay outside: loopback, link-local, private, shared, benchmark and multicast
 * addresses (and `localhost` names) are refused unless REGWATCH_ALERT_ALLOW_PRIVATE_TARGETS is
 * true, when a rule is written and again when a message is sent. A webhook's name is resolved,
 * every address checked, and the connection made to the address checked (no rebinding between).
 */
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { type Said, said } from "../said.ts";

export const ALLOW_PRIVATE = "REGWATCH_ALERT_ALLOW_PRIVATE_TARGETS";

const INSIDE = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  // 240/4 holds 255.255.255.255 too.
  ["240.0.0.0", 4],
] as const)
  INSIDE.addSubnet(network, prefix, "ipv4");
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const)
  INSIDE.addSubnet(network, prefix, "ipv6");

/** An IP address in a refused range (BlockList checks ::ffff:a.b.c.d against the IPv4 ranges). */
export function privateAddress(address: string): boolean {
  const family = isIP(address);
  return family !== 0 && INSIDE.check(address, family === 6 ? "ipv6" : "ipv4");
}

/** Why a host (a URL's hostname, an e-mail domain) is inside, or undefined when it is not. */
export function insideHost(host: string): string | undefined {
  const bare = host.replace(/^\[(?:IPv6:)?/i, "").replace(/\]$/, "");
  if (privateAddress(bare)) return `${bare} is a loopback, link-local, private or multicast address`;
  const name = bare.toLowerCase().replace(/\.$/, "");
  if (name === "localhost" || name.endsWith(".localhost")) return `${bare} is a localhost name`;
  return undefined;
}

/** A recipient whose domain is an address literal (or a localhost name) inside. */
export function insideRecipient(address: string): string | undefined {
  const at = address.lastIndexOf("@");
  return at < 0 ? undefined : insideHost(address.slice(at + 1));
}

/** The hosts of a rule's target that are inside, each with why. */
export function insideTargets(channel: string, target: string): string[] {
  if (channel === "webhook") {
    try {
      const why = insideHost(new URL(target).hostname);
      return why ? [why] : [];
    } catch {
      return [];
    }
  }
  if (channel === "email")
    return target
      .split(",")
      .map((a) => insideRecipient(a.trim()))
      .filter((why): why is string => why !== undefined);
  return [];
}

/** A rule's target refused when it is written (the CLI exits 64, the console answers 400). */
export function privateTargetProblem(channel: string, target: string, allowed: boolean): Said | undefined {
  if (allowed) return undefined;
  const why = insideTargets(channel, target);
  if (why.length === 0) return undefined;
  return said(
    "rule.privateTarget",
    { target, setting: ALLOW_PRIVATE },
    `--target "${target}": ${why.join("; ")}; alert targets must be outside addresses unless ${ALLOW_PRIVATE}=true`,
  );
}

/** A connection refused because the name resolved to an address inside. */
export class InsideAddressError extends Error {
  readonly code = "ERR_REGWATCH_PRIVATE_TARGET";
  constructor(host: string, address: string) {
    super(
      `${host} resolves to ${address}, a loopback, link-local, private or multicast address: not sent (set ${ALLOW_PRIVATE}=true to allow it)`,
    );
    this.name = "InsideAddressError";
  }
}

/** The refusal somewhere in an error's causes, if that is what stopped the request. */
export function insideRefusal(error: unknown): InsideAddressError | undefined {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++)
    if (e instanceof InsideAddressError) return e;
  return undefined;
}

type Resolve = (
  host: string,
  options: LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/**
 * A `lookup` for net/tls connect: every address the name resolves to is checked, and the socket
 * connects to one of those very addresses. `resolve` is dns.lookup unless a test gives its own.
 */
export function outsideLookup(resolve: Resolve = dnsLookup): LookupFunction {
  return (host, options, callback) => {
    resolve(host, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "", 0);
      const inside = addresses.find((a) => privateAddress(a.address));
      if (inside) return callback(new InsideAddressError(host, inside.address), "", 0);
      const first = addresses[0];
      if (!first)
        return callback(Object.assign(new Error(`${host} has no address`), { code: "ENOTFOUND" }), "", 0);
      // With `all` (as happy eyeballs asks) the callback takes the list.
      if (options.all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      else callback(null, first.address, first.family);
    });
  };
}
