/**
 * Telling database failures apart: a lost or read-only database ends the run with one message,
 * a deadlock or serialisation failure is worth repeating, a refusal of the data itself (too deep,
 * too large, a character it cannot hold) is the same on every try, anything else fails the
 * statement's window.
 */
import { RegwatchError } from "../errors.ts";
import { UNTRUSTED_CERTIFICATE } from "../tls-trust.ts";
import { NOT_POSTGRES } from "./socket.ts";

/** The database is gone, failed over or refuses writes: nothing more can be done in this run. */
export class DatabaseUnavailableError extends RegwatchError {
  constructor(message: string, cause?: unknown) {
    super("DATABASE", message, { cause });
  }
}

const CONNECTION_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "EPIPE",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EAI_FAIL",
  "EHOSTUNREACH",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
]);

/**
 * The error that carries a SQLSTATE or driver code: the one thrown, or its cause when a wrapper
 * (drizzle's "Failed query") holds it.
 */
function coded(error: unknown): { code: string; message?: string } | undefined {
  for (let e = error, depth = 0; e && depth < 3; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && code !== "DATABASE") return e as { code: string; message?: string };
  }
  return undefined;
}

function codeOf(error: unknown): string | undefined {
  return coded(error)?.code;
}

/** Why the database cannot be used any more, or undefined when the error is about one statement. */
export function databaseGone(error: unknown): string | undefined {
  const found = coded(error);
  if (!found) return undefined;
  const { code } = found;
  if (code === NOT_POSTGRES) return found.message;
  if (UNTRUSTED_CERTIFICATE.has(code))
    return `could not connect to the database: its TLS certificate is not trusted (${code}, with sslmode=verify-full or verify-ca): check the host name in DATABASE_URL, or give Node the certificate authority with NODE_EXTRA_CA_CERTS`;
  if (code === "25006")
    return "the database is read-only (a standby, or default_transaction_read_only is on)";
  if (code === "57P01" || code === "57P02" || code === "57P03")
    return "the database server terminated the connection (shutdown, failover or an administrator)";
  if (code.startsWith("08")) return `the connection to the database failed (SQLSTATE ${code})`;
  if (!CONNECTION_CODES.has(code)) return undefined;
  return neverConnected(error, code) ?? `the connection to the database was lost (${code})`;
}

/**
 * A connection that could not be opened (refused, no such host, no route) is not one that was
 * lost: say where regwatch tried to connect (host and port only, never the URL with its
 * password) and what to look at.
 */
function neverConnected(error: unknown, code: string): string | undefined {
  let e = error as {
    syscall?: unknown;
    address?: unknown;
    port?: unknown;
    hostname?: unknown;
    cause?: unknown;
  };
  for (let depth = 0; e && depth < 3 && e.syscall === undefined; depth++) {
    if ((e as { during?: unknown }).during === "startup") return closedAtStartup(e, code);
    if ((e as { code?: unknown }).code === "CONNECT_TIMEOUT")
      return `could not connect to the database at ${driverWhere(e)} (${code}): nothing answered as Postgres within connect_timeout (30 s unless DATABASE_URL sets it); check that DATABASE_URL names Postgres's host and port, and that the server is not overloaded`;
    e = e.cause as typeof e;
  }
  if (!e) return undefined;
  if (e.syscall === "getaddrinfo" && typeof e.hostname === "string")
    return `could not connect to the database: ${lookupFailed(e.hostname, code)}`;
  if (e.syscall !== "connect") return undefined;
  const where =
    typeof e.address === "string"
      ? `${e.address}${e.port === undefined ? "" : `:${String(e.port)}`}`
      : "its address";
  const hint =
    code === "ECONNREFUSED"
      ? "check that Postgres is running there and that DATABASE_URL names the right host and port"
      : "check that the host is reachable from here (a firewall, a VPN, the port) and that DATABASE_URL names it";
  return `could not connect to the database at ${where} (${code}): ${hint}`;
}

/**
 * Why the host's name gave no address. ENOTFOUND is an answer (no such name); EAI_AGAIN is no
 * answer at all (no network, or a DNS server that does not reply), EAI_FAIL a DNS server that
 * failed: there the name may well be right, and the network or DNS settings are what to check.
 */
function lookupFailed(host: string, code: string): string {
  if (code === "ENOTFOUND") return `the host ${host} was not found (${code}); check the host in DATABASE_URL`;
  const why = code === "EAI_AGAIN" ? "no DNS server answered" : "the DNS server failed";
  return `the name of the host ${host} could not be looked up: ${why} (${code}); check this machine's network and DNS settings, then the host in DATABASE_URL`;
}

/**
 * Every try ended by the other side before the connection was ready, until connect_timeout: what
 * a proxy does in front of a database that is down (Docker's published port of a stopped
 * container, a TCP load balancer with no healthy backend). The driver (patched, see
 * patches/postgres+3.4.9.patch) marks that error `during: "startup"`.
 */
function closedAtStartup(error: { address?: unknown; port?: unknown }, code: string): string {
  return `could not connect to the database at ${driverWhere(error)} (${code}): every connection was closed by the other side before Postgres answered; check that Postgres is running behind that address (a proxy or a published container port accepts connections while the database behind it is down)`;
}

/** Host and port of a postgres.js connection error: one of each, or the lists of a multi-host URL. */
function driverWhere(error: { address?: unknown; port?: unknown }): string {
  const one = (v: unknown) => (Array.isArray(v) ? v.join(",") : String(v));
  const port =
    error.port === undefined || (Array.isArray(error.port) && !error.port.length)
      ? ""
      : `:${one(error.port)}`;
  return error.address === undefined ? "its address" : `${one(error.address)}${port}`;
}

/** Deadlock or serialisation failure: the transaction can be run again as it is. */
export function isRetryableConflict(error: unknown): boolean {
  const code = codeOf(error);
  return code === "40P01" || code === "40001";
}

/**
 * SQLSTATEs by which Postgres refuses the data it was given, whatever the moment: the same value
 * sent again is refused again. Invalid JSON syntax (22P02) is left out on purpose: a body cut
 * short or garbled in transfer reads that way, and the next fetch may bring it whole.
 */
const DATA_REFUSALS: Record<string, string> = {
  "54000": "a limit of the database was exceeded",
  "54001": "nested too deep for the database (stack depth limit exceeded)",
  "22001": "a value is too long for its column",
  "22003": "a number is out of the database's range",
  "22021": "a byte sequence is not valid in the database's encoding",
  "22P05": "a character the database cannot store (such as \\u0000)",
};

/**
 * Why the database refused this data for good (with its SQLSTATE), or undefined when repeating
 * the statement may succeed (a lost connection, a conflict, anything not known to be about the data).
 */
export function permanentRefusal(error: unknown): string | undefined {
  const code = codeOf(error);
  const why = code === undefined ? undefined : DATA_REFUSALS[code];
  return why === undefined ? undefined : `${why} (SQLSTATE ${code})`;
}

/** One of the named unique constraints refused a row. */
export function isUniqueViolation(error: unknown, constraints: readonly string[]): boolean {
  if (codeOf(error) !== "23505") return false;
  const name = (error as { constraint_name?: unknown }).constraint_name;
  return typeof name === "string" && constraints.includes(name);
}

let lastLoss: DatabaseUnavailableError | undefined;

/** Rethrows a lost-database error as DatabaseUnavailableError; other errors are returned unchanged. */
export function classifyDatabaseError(error: unknown): unknown {
  if (error instanceof DatabaseUnavailableError) lastLoss = error;
  else {
    const gone = databaseGone(error);
    if (!gone) return error;
    lastLoss = new DatabaseUnavailableError(`database problem: ${gone}`, error);
  }
  return lastLoss;
}

/**
 * The last loss of the database this process classified, if any: why a command whose work never
 * finished stopped (src/commands/unfinished.ts).
 */
export function lastDatabaseLoss(): DatabaseUnavailableError | undefined {
  return lastLoss;
}
