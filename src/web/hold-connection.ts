/**
 * A check that runs longer than the console's idle cut (connectionTimeout) would lose its answer:
 * nothing crosses the connection while the check works, and the server closes a socket that is
 * silent for idleMs. While `work` runs, its request's socket has no idle cut; after it, the
 * server's own cut applies again to what the answer sends.
 */
import type { FastifyRequest } from "fastify";

export async function holdConnectionWhile<T>(request: FastifyRequest, work: () => Promise<T>): Promise<T> {
  const socket = request.raw.socket;
  const idleMs = request.server.server.timeout;
  socket.setTimeout(0);
  try {
    return await work();
  } finally {
    if (!socket.destroyed) socket.setTimeout(idleMs);
  }
}
