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
 * The other side's first answer is looked at (src/db/first-answer.ts): a port where another
 * service listens, or a server that refuses the TLS the URL requires, ends the socket at once
 * with an error saying so, instead of a wait for connect_timeout and a word about a lost
 * connection.
 */
import net from "node:net";
import { firstAnswerProblem, type TlsAsk, tlsAsk } from "./first-answer.ts";

/** The code of the error a socket ends with when its first answer is not Postgres's. */
export const NOT_POSTGRES = "ENOTPOSTGRES";

interface ConnectOptions {
  host: string[];
  port: number[];
  path?: string | false;
  connect_timeout?: number;
  ssl?: unknown;
  sslnegotiation?: unknown;
}

export async function connectNoDelay(options: ConnectOptions): Promise<net.Socket> {
  const tls = tlsAsk(options.ssl, options.sslnegotiation);
  if (options.path) return open({ path: options.path }, options.connect_timeout, tls);
  let lastError: unknown;
  for (let i = 0; i < options.host.length; i++) {
    try {
      return await open(
        { host: options.host[i]!, port: options.port[i] ?? options.port[0] ?? 5432 },
        options.connect_timeout,
        tls,
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

export function open(target: SocketTarget, timeoutSeconds = 30, tls: TlsAsk = "none"): Promise<net.Socket> {
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
      socket.once("data", (first: Buffer) => {
        const problem = firstAnswerProblem(first, tls);
        if (problem) socket.destroy(notPostgres(target, problem));
      });
      resolve(socket);
    });
    socket.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

function notPostgres(target: SocketTarget, problem: string): Error {
  const where = "path" in target ? target.path : `${target.host}:${target.port}`;
  return Object.assign(new Error(`the server at ${where} ${problem}`), { code: NOT_POSTGRES });
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
 * factory but its type declarations do not list it, hence the one cast here.) `opened`, when
 * given, holds each socket opened until it closes.
 */
export function withNoDelay<T extends object>(options: T, opened?: Set<net.Socket>): T {
  const socket = async (o: ConnectOptions) => {
    const made = await connectNoDelay(o).catch(failedSocket);
    if (opened) {
      opened.add(made);
      made.once("close", () => opened.delete(made));
    }
    return made;
  };
  return { ...options, socket } as T;
}

/**
 * Each of `sockets` closed as soon as what was written to it has left, once it is ended: the
 * driver ends a connection with Terminate and then waits for the server to close its side, which
 * it does when the session's backend has exited (1 to 6 ms of every command's end on a local
 * Postgres, measured), with nothing more to read from it.
 */
export function closeWhenWritten(sockets: Iterable<net.Socket>): void {
  for (const socket of sockets) socket.once("finish", () => socket.destroy());
}

/**
 * A connection that could not be opened, as the driver's own socket reports it: `error`, then
 * `close`. A factory that rejects instead fails the one waiting query but leaves its connection
 * "connecting" for good (issue 48, point 7): once every connection of the pool is, each later
 * query waits for ever and Node, its event loop empty, exits 0 in the middle of a run.
 */
export function failedSocket(error: unknown): net.Socket {
  const socket = new net.Socket();
  // After the driver has attached its listeners (on the factory's answer) and before it writes.
  setImmediate(() => socket.destroy(error instanceof Error ? error : new Error(String(error))));
  return socket;
}
