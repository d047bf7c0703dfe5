/**
 * Connections to Postgres with Nagle's algorithm off. postgres.js writes a COPY's last data and
 * its CopyDone as separate small packets; with Nagle on, the second one waits for the server's
 * delayed ACK (40 ms on Linux) before it leaves, which would cost every window write 40 ms.
 *
 * postgres.js upgrades a socket of our making to TLS itself and takes the handshake's server name
 * (SNI) from the socket's `host` property, as it does for its own sockets; so each socket carries
 * the host it was opened to, or providers that route by SNI would refuse the connection.
 */
import net from "node:net";

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

/** A socket as postgres.js expects it: the host name it was opened to, for TLS's SNI. */
type HostSocket = net.Socket & { host?: string };

function open(
  target: { path: string } | { host: string; port: number },
  timeoutSeconds = 30,
): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket: HostSocket = net.connect(target);
    if ("host" in target) socket.host = target.host;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`connecting to Postgres timed out after ${timeoutSeconds} s`));
    }, timeoutSeconds * 1000);
    socket.once("connect", () => {
      clearTimeout(timer);
      socket.removeAllListeners("error");
      socket.setNoDelay(true);
      resolve(socket);
    });
    socket.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/**
 * Adds the no-delay socket to a postgres.js options object. (postgres.js accepts a `socket`
 * factory but its type declarations do not list it, hence the one cast here.)
 */
export function withNoDelay<T extends object>(options: T): T {
  return { ...options, socket: connectNoDelay } as T;
}
