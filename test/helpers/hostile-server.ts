/**
 * A hostile registry for client tests: a bare node:http server whose answer each test chooses
 * (stall, trickle, oversize, deep JSON, bad UTF-8, echoed keys, redirects, 429s...). It records
 * every request it saw, and `close` cuts connections left hanging on purpose.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  body: string;
}

export type Answer = (req: SeenRequest, res: ServerResponse) => void | Promise<void>;

export interface HostileServer {
  /** http://127.0.0.1:PORT */
  origin: string;
  /** What the next requests get; replace it per test. */
  answer: Answer;
  seen: SeenRequest[];
  /** Resolves when the server has seen `count` requests in all. */
  requests(count: number): Promise<void>;
  close(): Promise<void>;
}

export async function startHostileServer(
  answer: Answer = (_req, res) => {
    res.end();
  },
): Promise<HostileServer> {
  const sockets = new Set<Socket>();
  const waiters: { count: number; resolve: () => void }[] = [];
  const state: HostileServer = {
    origin: "",
    answer,
    seen: [],
    requests: (count) =>
      new Promise((resolve) => {
        if (state.seen.length >= count) resolve();
        else waiters.push({ count, resolve });
      }),
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://x");
      const seen: SeenRequest = {
        method: req.method ?? "GET",
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      state.seen.push(seen);
      for (const waiter of waiters.filter((w) => state.seen.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      Promise.resolve(state.answer(seen, res)).catch(() => res.destroy());
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

/** Answers JSON with a status (and extra headers). */
export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(text);
}
