/**
 * Issue 36, the messages an operator meets on the way to production: a database that never
 * answered is named as such (where regwatch tried, never the password), and lines that report
 * success carry no `regwatch:` prefix, which is kept for failures.
 */
import { createServer, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { closingProxy } from "../helpers/closing-proxy.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(async () => {
  await test.drop();
});

/** A port on loopback that nothing listens on (taken, then given back). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("a database that never answered", () => {
  it("says it could not connect, to which host and port, and what to check, never the password", async () => {
    const port = await closedPort();
    const result = await runCli(["status"], {
      DATABASE_URL: `postgres://regwatch:sup3r-secret@127.0.0.1:${port}/regwatch`,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`could not connect to the database at 127.0.0.1:${port} (ECONNREFUSED)`);
    expect(result.stderr).toContain("check that Postgres is running there");
    expect(result.stderr).not.toContain("was lost");
    expect(result.stderr).not.toContain("sup3r-secret");
  });

  it("says so when every connection is closed before Postgres answers (a proxy with no database behind it)", async () => {
    const proxy = await closingProxy();
    const { port } = proxy;
    try {
      const result = await runCli(["status"], {
        DATABASE_URL: `postgres://regwatch:sup3r-secret@127.0.0.1:${port}/regwatch?connect_timeout=1`,
      });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        `could not connect to the database at 127.0.0.1:${port} (CONNECTION_CLOSED)`,
      );
      expect(result.stderr).toContain("check that Postgres is running behind that address");
      expect(result.stderr).not.toContain("sup3r-secret");
      expect(proxy.accepted()).toBeLessThan(30);
    } finally {
      await proxy.close();
    }
  });

  it("names a host that does not resolve, online or with no network at all", async () => {
    const result = await runCli(["status"], {
      DATABASE_URL: "postgres://regwatch:sup3r-secret@no-such-host.invalid:5432/regwatch",
    });
    expect(result.code).toBe(1);
    // A resolver that answers says there is no such name; with no network (or a DNS server that
    // does not reply) there is no answer at all. Either is said in words, with its own code.
    expect(result.stderr).toMatch(
      /could not connect to the database: (the host no-such-host\.invalid was not found \(ENOTFOUND\)|the name of the host no-such-host\.invalid could not be looked up: no DNS server answered \(EAI_AGAIN\))/,
    );
    expect(result.stderr).not.toContain("getaddrinfo");
    expect(result.stderr).not.toContain("sup3r-secret");
  });
});

describe("a REGWATCH_ variable regwatch does not read", () => {
  it("is named once on stderr by any command, with the nearest known name", async () => {
    const result = await runCli(["status"], { DATABASE_URL: test.url, REGWATCH_WATCHURL: "http://x/v2" });
    expect(result.code).toBe(0);
    const warning =
      "regwatch: warning: REGWATCH_WATCHURL is not a variable regwatch reads (did you mean REGWATCH_WATCH_URL?); it is ignored";
    expect(result.stderr.split(warning).length - 1).toBe(1);
  });
});

describe("a port already in use", () => {
  it("names the variable and the option that move the console, and the health server's variable", async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const { port } = holder.address() as { port: number };
    try {
      const web = await runCli(["web", "--port", String(port)], { DATABASE_URL: test.url });
      expect(web.code).toBe(1);
      expect(web.stderr).toContain(
        `the web console cannot listen on 127.0.0.1:${port}: the port is already in use by another program (EADDRINUSE): choose another port with REGWATCH_WEB_PORT or --port`,
      );
      const daemon = await runCli(["daemon"], {
        DATABASE_URL: test.url,
        REGWATCH_WATCH_URL: "http://127.0.0.1:9/v2",
        REGWATCH_API_KEY: "first-week-key-0123456789",
        REGWATCH_HTTP_PORT: String(port),
      });
      expect(daemon.code).toBe(1);
      expect(daemon.stderr).toContain(
        `the health and metrics server cannot listen on 127.0.0.1:${port}: the port is already in use by another program (EADDRINUSE): choose another port with REGWATCH_HTTP_PORT`,
      );
    } finally {
      await new Promise<void>((resolve) => holder.close(() => resolve()));
    }
  });
});

describe("https:// against a server that speaks plain HTTP", () => {
  it("says the server does not speak TLS, suggests http://, and does not retry the handshake", async () => {
    let connections = 0;
    const sockets = new Set<Socket>();
    const plain = createServer((socket) => {
      connections++;
      sockets.add(socket);
      socket.end("HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
    });
    await new Promise<void>((resolve) => plain.listen(0, "127.0.0.1", resolve));
    const { port } = plain.address() as { port: number };
    try {
      const result = await runCli(["sync"], {
        DATABASE_URL: test.url,
        REGWATCH_WATCH_URL: `https://127.0.0.1:${port}/v2`,
        REGWATCH_API_KEY: "first-week-key-0123456789",
        REGWATCH_RETRY_BASE_MS: "50",
      });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain("the server does not speak TLS at this address");
      expect(result.stderr).toContain("use its http:// address");
      expect(result.stderr).not.toContain("ssl3_get_record");
      // One handshake per address tried (the description's three places, then the lists), none repeated.
      expect(connections).toBeLessThanOrEqual(4);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => plain.close(() => resolve()));
    }
  });
});
