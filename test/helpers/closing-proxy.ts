/**
 * TCP servers that stand for a Postgres address gone wrong, each counting the connections it
 * took: `closingProxy` ends every connection at once without a byte (Docker's published port of a
 * stopped container, a TCP load balancer with no healthy backend); `resetAtFirstQuery` answers a
 * client's startup as a trusting Postgres would (authentication OK, ready for queries) and resets
 * the connection at the first query it is sent (with the driver's default `fetch_types`, that
 * query is the driver's own read of the array types).
 */
import { createServer, type Socket } from "node:net";

export type ClosingProxy = { port: number; accepted: () => number; close: () => Promise<void> };

async function serve(onConnection: (socket: Socket) => void): Promise<ClosingProxy> {
  let accepted = 0;
  const server = createServer((socket) => {
    accepted++;
    onConnection(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    accepted: () => accepted,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export function closingProxy(): Promise<ClosingProxy> {
  return serve((socket) => {
    socket.end();
    socket.resume(); // reads the startup message, so that the client's end is seen and the socket closes
  });
}

export function resetAtFirstQuery(): Promise<ClosingProxy> {
  return serve((socket) => {
    socket.on("error", () => {});
    socket.once("data", () => {
      const authOk = Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 0]); // 'R', length 8, AuthenticationOk
      const ready = Buffer.from([0x5a, 0, 0, 0, 5, 0x49]); // 'Z', length 5, idle
      socket.write(Buffer.concat([authOk, ready]));
      socket.once("data", () => socket.resetAndDestroy());
    });
  });
}
