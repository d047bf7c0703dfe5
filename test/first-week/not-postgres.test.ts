/**
 * A DATABASE_URL that names a port where something other than Postgres listens: regwatch says so
 * at the other side's first byte, quoting it as printable text, instead of waiting out
 * connect_timeout and calling it a lost connection; a side that accepts and stays silent is named
 * as such when connect_timeout passes.
 */
import { createServer as createHttpServer } from "node:http";
import { createServer, type Server, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";

const listening: { server: Server; sockets: Set<Socket> }[] = [];
afterEach(async () => {
  for (const { server, sockets } of listening.splice(0)) {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/** Listens on a free port; its connections are destroyed when the test ends. */
async function listen(server: Server): Promise<number> {
  const sockets = new Set<Socket>();
  server.on("connection", (socket: Socket) => sockets.add(socket));
  listening.push({ server, sockets });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as { port: number }).port;
}

describe("a DATABASE_URL that names another service's port", () => {
  it("names an HTTP server at once, quoting its answer", async () => {
    const port = await listen(createHttpServer((_, res) => res.end("hello")));
    // connect_timeout of 20 s: an answer after it would mean the first byte was not looked at.
    const result = await runCli(["status"], {
      DATABASE_URL: `postgres://regwatch:sup3r-secret@127.0.0.1:${port}/regwatch?connect_timeout=20`,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `the server at 127.0.0.1:${port} does not speak Postgres's protocol (it answered "HTTP/1.1 400 Bad Request`,
    );
    expect(result.stderr).toContain("check that DATABASE_URL names Postgres's port");
    expect(result.stderr).not.toContain("sup3r-secret");
  });

  it("quotes a server that speaks first as printable text only", async () => {
    const port = await listen(createServer((socket) => socket.end("\x1b[2J\x1b]0;owned\x07banner\r\n")));
    const result = await runCli(["status"], {
      DATABASE_URL: `postgres://regwatch@127.0.0.1:${port}/regwatch?connect_timeout=20`,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('(it answered ".[2J.]0;owned.banner..")');
    expect(result.stderr).not.toContain("\x1b");
  });

  it("names a server that refuses the TLS the URL requires", async () => {
    // Answers Postgres's SSLRequest with "no", as a Postgres with ssl = off does.
    const port = await listen(createServer((socket) => socket.once("data", () => socket.write("N"))));
    const result = await runCli(["status"], {
      DATABASE_URL: `postgres://regwatch@127.0.0.1:${port}/regwatch?sslmode=require&connect_timeout=20`,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `the server at 127.0.0.1:${port} does not accept TLS, which DATABASE_URL requires`,
    );
  });

  it("names a side that accepts and never answers, once connect_timeout has passed", async () => {
    const port = await listen(createServer((socket) => socket.resume()));
    const result = await runCli(["status"], {
      DATABASE_URL: `postgres://regwatch@127.0.0.1:${port}/regwatch?connect_timeout=1`,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `could not connect to the database at 127.0.0.1:${port} (CONNECT_TIMEOUT)`,
    );
    expect(result.stderr).toContain("nothing answered as Postgres within connect_timeout");
    expect(result.stderr).not.toContain("was lost");
  });
});
