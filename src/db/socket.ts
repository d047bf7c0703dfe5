/**
 * Connections to Postgres with Nagle's algorithm off. postgres.js writes a COPY's last data and
 * its CopyDone as separate small packets; with Nagle on, the second one waits for the server's
 * delayed ACK (40 ms on Linux) before it leaves, which would cost every window write 40 ms.
 *
 * postgres.js upgrades a socket of our making to TLS itself and takes the handshake's server name
 * (SNI) from the socket's `host` property, as it does for its own sockets; so each socket carries
 * the host it was opened to, or providers that route by SNI would refuse the connection.
 *
 * A connection to a port of this machine on which nothing listens can connect to itself: when
 * the port is in the ephemeral range (the embedded server's is), the kernel may pick that same
 * port as the connection's own, and TCP's simultaneous open then joins the socket to itself.
 * postgres.js would read its own startup message back and wait out its connect timeout (30 s);
 * such a socket is closed at once and refused as the server being down would be.
 *
 * Postgres never speaks first, and its first answer to a client starts with one of a few message
 * types. A DATABASE_URL that names another service's port (the console's HTTP, Redis, MySQL, SSH)
 * got an answer postgres.js read as the start of a message it waited to complete, until the other
 * side closed or connect_timeout (30 s) passed, then a word about a lost connection; such a
 * socket is now ended at its first byte with an error that quotes what the other side said.
 */
import net from "node:net";

/** The message types a Postgres server's first answer can start with. */
const FIRST_ANSWERS = new Set(
  [
    "R", // authentication request (or OK)
    "E", // error (too many connections, no such database, ...)
    "S", // TLS accepted (after SSLRequest)
    "N", // TLS refused (after SSLRequest)
    "v", // protocol version negotiation
  ].map((c) => c.charCodeAt(0)),
);

/** The code of the error a socket ends with when the other side is not Postgres. */
export const NOT_POSTGRES = "ENOTPOSTGRES";

interface ConnectOptions {
  host: string[];
  port: number[];
  path?: string | false;
  connect_timeout?: number;
}

export async function connectNoDelay(options: ConnectOptions): Promise<net.Socket> {
  if (options.path) return open({ path: options.path }, options.connect_timeout);
  let lastError: unknown;
  for (let i = 0; i < options.host.length; i++) {
    try {
      return await open(
        { host: options.host[i]!, port: options.port[i] ?? options.port[0] ?? 5432 },
        options.connect_timeout,
      );
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError ?? new Error("no Postgres host to connect to");
}

/** A socket as postgres.js expects it: the host name it was opened to (for TLS's SNI) and port. */
type HostSocket = net.Socket & { host?: string; port?: number };

/** A TCP target, or a Unix socket's path; `localPort` only for the test of a socket joined to itself. */
export type SocketTarget = { path: string } | { host: string; port: number; localPort?: number };

export function open(target: SocketTarget, timeoutSeconds = 30): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket: HostSocket = net.connect(
      "path" in target ? target : { ...target, ...(target.localPort ? { localAddress: target.host } : {}) },
    );
    // Also named in the driver's connection errors, as on the sockets it opens itself.
    if ("host" in target) Object.assign(socket, { host: target.host, port: target.port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`connecting to Postgres timed out after ${timeoutSeconds} s`));
    }, timeoutSeconds * 1000);
    socket.once("connect", () => {
      clearTimeout(timer);
      if (joinedToItself(socket)) {
        const refused = new Error(
          `connect ECONNREFUSED ${socket.remoteAddress}:${socket.remotePort} (nothing listens there: the connection joined itself)`,
        );
        socket.destroy();
        reject(Object.assign(refused, { code: "ECONNREFUSED" }));
        return;
      }
      socket.removeAllListeners("error");
      socket.setNoDelay(true);
      socket.once("data", (chunk: Buffer) => {
        if (!FIRST_ANSWERS.has(chunk[0]!)) socket.destroy(notPostgres(socket, chunk));
      });
      resolve(socket);
    });
    socket.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

function notPostgres(socket: HostSocket, chunk: Buffer): Error {
  const where = socket.host ? `${socket.host}:${socket.remotePort}` : "the socket's path";
  // What the other side said, as printable ASCII: it is an unknown server's bytes.
  const said = chunk
    .subarray(0, 40)
    .toString("latin1")
    .replace(/[^\x20-\x7e]/g, ".");
  return Object.assign(
    new Error(
      `the server at ${where} does not speak Postgres's protocol (it answered "${said}"): check that DATABASE_URL names Postgres's port`,
    ),
    { code: NOT_POSTGRES },
  );
}

function joinedToItself(socket: net.Socket): boolean {
  return (
    socket.localPort !== undefined &&
    socket.localPort === socket.remotePort &&
    socket.localAddress === socket.remoteAddress
  );
}

/**
 * Adds the no-delay socket to a postgres.js options object. (postgres.js accepts a `socket`
 * factory but its type declarations do not list it, hence the one cast here.)
 */
export function withNoDelay<T extends object>(options: T): T {
  return { ...options, socket: connectNoDelay } as T;
}
