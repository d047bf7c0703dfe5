/**
 * What the first bytes a Postgres address sends back say about it. Postgres never speaks first,
 * and its first answer starts with one of a few message types; anything else is another service
 * (an HTTP server, Redis, MySQL, SSH), which postgres.js would read as the start of a message and
 * wait on until connect_timeout. A server that answers TLS's request with "no" where the
 * connection requires TLS is named too (postgres.js would go on with a handshake the server reads
 * as a malformed startup message, and the connection would end in a reset).
 */

/** How the connection asked for TLS: not, as a requirement (after SSLRequest), or directly. */
export type TlsAsk = "none" | "prefer" | "required" | "direct";

const R = 0x52; // authentication request (or OK)
const E = 0x45; // error: too many connections, no such database, ...
const S = 0x53; // TLS accepted, after SSLRequest
const N = 0x4e; // TLS refused, after SSLRequest (also a notice, before authentication)
const V = 0x76; // protocol version negotiation
const POSTGRES_FIRST = new Set([R, E, S, N, V]);

/** TLS asked for by postgres.js's `ssl` and `sslnegotiation` options. */
export function tlsAsk(ssl: unknown, sslnegotiation: unknown): TlsAsk {
  if (!ssl) return "none";
  if (sslnegotiation === "direct") return "direct";
  return ssl === "prefer" ? "prefer" : "required";
}

/** Why the first chunk an address sent is not Postgres's answer, or undefined when it may be. */
export function firstAnswerProblem(first: Buffer, tls: TlsAsk): string | undefined {
  // A direct TLS handshake's first answer is the server's TLS record: tls checks it.
  if (tls === "direct" || first.length === 0) return undefined;
  if (tls === "required" && first[0] === N)
    return "does not accept TLS, which DATABASE_URL requires (sslmode): turn TLS on in that Postgres, or ask for it with sslmode=prefer only on a network you trust";
  if (POSTGRES_FIRST.has(first[0]!)) return undefined;
  // The other side's bytes, as printable ASCII: they come from an unknown server.
  const said = first
    .subarray(0, 40)
    .toString("latin1")
    .replace(/[^\x20-\x7e]/g, ".");
  return `does not speak Postgres's protocol (it answered "${said}"): check that DATABASE_URL names Postgres's port`;
}
