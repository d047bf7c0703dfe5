/**
 * The console's timeouts over raw sockets, with small values given to the server so the test
 * waits seconds, not minutes: a body trickled a byte at a time and headers trickled line by line
 * are answered 408 and closed; an idle keep-alive connection is closed. The bounds asserted are
 * loose (the trickle would take far longer than any of them); none is a performance target.
 */
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONSOLE_TIMEOUTS } from "../../src/web/server.ts";
import { startTestConsole, type TestConsole } from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

let t: TestDatabase;
let web: TestConsole;

beforeAll(async () => {
  t = await createTestDatabase();
  web = await startTestConsole(t.db, {
    timeouts: { headersMs: 1000, requestMs: 1500, checkEveryMs: 200, keepAliveMs: 500 },
  });
});
afterAll(async () => {
  await web?.close();
  await t?.drop();
});

interface Trickle {
  /** Everything the server sent before it closed. */
  answer: string;
  /** Bytes of the trickled part written before the close. */
  sent: number;
  closedAfterMs: number;
}

/** Writes `head` at once, then `rest` a byte every `everyMs`, until the server closes the socket. */
function trickle(head: string, rest: string, everyMs: number): Promise<Trickle> {
  const { port } = new URL(web.url);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(Number(port), "127.0.0.1");
    let answer = "";
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    socket.on("data", (chunk) => {
      answer += chunk.toString("latin1");
    });
    socket.on("error", () => {}); // a reset after the 408 is part of closing
    socket.on("close", () => {
      clearInterval(timer);
      resolve({ answer, sent, closedAfterMs: Date.now() - started });
    });
    socket.on("connect", () => {
      socket.write(head);
      timer = setInterval(() => {
        if (sent >= rest.length) {
          clearInterval(timer);
          reject(new Error(`the server read all ${rest.length} bytes and did not close: ${answer}`));
          return;
        }
        if (!socket.destroyed) socket.write(rest[sent++]!);
      }, everyMs);
    });
  });
}

describe("timeouts", () => {
  it("answers a body trickled to POST /login with 408 and closes the connection", async () => {
    const body = `username=zoe&password=${"x".repeat(200)}&_csrf=abc`;
    const head = `POST /login HTTP/1.1\r\nHost: console\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n`;
    const result = await trickle(head, body, 100);
    expect(result.answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(result.sent).toBeLessThan(body.length);
    // requestMs 1500 plus a check every 200 ms; the whole trickle would take 23 s.
    expect(result.closedAfterMs).toBeLessThan(15_000);
  });

  it("answers headers trickled a byte at a time with 408", async () => {
    const headers = `GET /login HTTP/1.1\r\nHost: console\r\nX-Slow: ${"y".repeat(300)}\r\n\r\n`;
    const result = await trickle("", headers, 50);
    expect(result.answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(result.sent).toBeLessThan(headers.length);
  });

  it("closes an idle keep-alive connection", async () => {
    const request = "GET /healthz HTTP/1.1\r\nHost: console\r\nConnection: keep-alive\r\n\r\n";
    // The request goes at once; nothing follows it but the wait for the server to close.
    const result = await trickle(request, "\0".repeat(1000), 60_000);
    expect(result.answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(result.answer).toMatch(/keep-alive: timeout=\d+/i);
    expect(result.closedAfterMs).toBeLessThan(15_000);
  });

  it("by default cuts a trickled body off within a minute", () => {
    expect(CONSOLE_TIMEOUTS.requestMs + CONSOLE_TIMEOUTS.checkEveryMs).toBeLessThanOrEqual(60_000);
    expect(CONSOLE_TIMEOUTS.headersMs).toBeLessThanOrEqual(CONSOLE_TIMEOUTS.requestMs);
    expect(CONSOLE_TIMEOUTS.keepAliveMs).toBeLessThanOrEqual(10_000);
  });
});
