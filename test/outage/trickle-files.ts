/**
 * A file origin whose bodies trickle in (a chunk every 100 ms for about four seconds), so a sync's
 * file phase is in the middle of copying a body into Postgres when the test stops the server.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface TrickleFiles {
  url: string;
  /** File requests received so far. */
  requests(): number;
  /** From now on, requests get no answer at all (not even headers) until the server closes. */
  hang(): void;
  close(): Promise<void>;
}

export async function startTrickleFiles(): Promise<TrickleFiles> {
  let requests = 0;
  let hanging = false;
  const server = createServer((_request, response) => {
    requests++;
    if (hanging) return;
    response.writeHead(200, { "content-type": "application/json" });
    response.write('{"name": "Outage Kft.", "pad": "');
    let sent = 0;
    const timer = setInterval(() => {
      if (response.destroyed || ++sent > 40) {
        clearInterval(timer);
        if (!response.destroyed) response.end('"}');
        return;
      }
      response.write("x".repeat(64));
    }, 100);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => requests,
    hang: () => {
      hanging = true;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
