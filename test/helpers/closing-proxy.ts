/**
 * A TCP server that takes every connection and ends it at once without a byte: what Docker's
 * published port of a stopped container, or a TCP load balancer with no healthy backend, looks
 * like to a Postgres client.
 */
import { createServer } from "node:net";

export type ClosingProxy = { port: number; accepted: () => number; close: () => Promise<void> };

export async function closingProxy(): Promise<ClosingProxy> {
  let accepted = 0;
  const server = createServer((socket) => {
    accepted++;
    socket.end();
    socket.resume(); // reads the startup message, so that the client's end is seen and the socket closes
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    accepted: () => accepted,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
