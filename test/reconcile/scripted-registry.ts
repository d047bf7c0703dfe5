/**
 * A watch interface whose answers each test writes itself, over real HTTP: for the corners the
 * emulator, a well-behaved twin, never shows (a list vanishing mid-run, a 409 on removal, an
 * answer with no lists at all).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ScriptedRequest {
  method: string;
  path: string;
  body: unknown;
}

export type Script = (request: ScriptedRequest) => { status: number; body?: unknown } | undefined;

export interface ScriptedRegistry {
  url: string;
  requests: ScriptedRequest[];
  close(): Promise<void>;
}

export async function startScriptedRegistry(script: Script): Promise<ScriptedRegistry> {
  const requests: ScriptedRequest[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const request = {
        method: req.method ?? "GET",
        path: new URL(req.url ?? "/", "http://x").pathname,
        body: text ? (JSON.parse(text) as unknown) : undefined,
      };
      requests.push(request);
      const answer = script(request) ?? { status: 404, body: { message: "no such route in this script" } };
      res.writeHead(answer.status, { "content-type": "application/json" });
      res.end(answer.body === undefined ? "" : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
