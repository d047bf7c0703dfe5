/**
 * Bullet 1 of issue 10: every exchange is bounded, body included, and a stop cuts it. Transport
 * bounds run on real time by design (a socket does not follow a simulated clock), so these tests
 * use short bounds and assert the failure and its cause; the runner's timeout bounds each test.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "../../src/api/errors.ts";
import { type HostileServer, startHostileServer } from "../helpers/hostile-server.ts";
import { testClient, timeToFail } from "./setup.ts";

let server: HostileServer;
const timers = new Set<NodeJS.Timeout>();
beforeAll(async () => {
  server = await startHostileServer();
});
afterAll(async () => {
  for (const timer of timers) clearInterval(timer);
  await server.close();
});

const get = (path: string) => ({
  method: "GET" as const,
  url: new URL(path, server.origin),
  endpoint: "GET /t",
});

describe("closing the client", () => {
  it("does not wait for a request that never ends: its connection is destroyed after a grace", async () => {
    server.answer = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write("["); // then nothing, ever
    };
    const { http } = testClient(server.origin, { timeoutMs: 600_000, maxAttempts: 1 });
    const inFlight = http.request(get("/never")).then(
      () => "answered",
      (error: unknown) => (error as Error).message,
    );
    await server.requests(server.seen.length + 1);
    await http.close(); // before: waited for the request, which never ends
    expect(await inFlight).not.toBe("answered");
  });
});

describe("timeouts bound the whole exchange", () => {
  it("cuts a body that stalls after its headers at the request timeout", async () => {
    server.answer = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"watch_lists": ['); // then nothing, ever
    };
    const { http } = testClient(server.origin, { timeoutMs: 300, maxAttempts: 1 });
    const { ms, error } = await timeToFail(http.request(get("/stall")));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe("TIMEOUT");
    expect((error as ApiError).message).toMatch(/stalled for more than 300 ms/);
    expect(ms).toBeLessThan(5_000);
    await http.close();
  });

  it("cuts a body that trickles a byte per gap (never idle long) at the total bound", async () => {
    server.answer = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      const timer = setInterval(() => res.write(" "), 50);
      timers.add(timer);
      res.on("close", () => clearInterval(timer));
    };
    const { http } = testClient(server.origin, { timeoutMs: 300, totalTimeoutMs: 1_000, maxAttempts: 1 });
    const { ms, error } = await timeToFail(http.request(get("/trickle")));
    expect((error as ApiError).code).toBe("TIMEOUT");
    expect((error as ApiError).message).toMatch(/no complete answer within 1000 ms/);
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(ms).toBeLessThan(5_000);
    await http.close();
  });

  it("cuts a server that never sends headers", async () => {
    server.answer = () => {};
    const { http } = testClient(server.origin, { timeoutMs: 300, maxAttempts: 1 });
    const { error } = await timeToFail(http.request(get("/silent")));
    expect((error as ApiError).code).toBe("TIMEOUT");
    expect((error as ApiError).message).toMatch(/no response headers within 300 ms/);
    await http.close();
  });

  it("stops a transfer in flight at once when the stop signal aborts", async () => {
    server.answer = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write("[");
    };
    const stop = new AbortController();
    // No time limit would end it within the test's own (an hour, more than the test is given):
    // only the stop signal can, so the ABORTED failure proves the transfer was stopped by it.
    const { http } = testClient(server.origin, { timeoutMs: 3_600_000, signal: stop.signal });
    const before = server.seen.length;
    const pending = http.request(get("/stop"));
    await server.requests(before + 1);
    const { error } = await timeToFail(pending, () => stop.abort(new Error("SIGTERM")));
    expect((error as ApiError).code).toBe("ABORTED");
    expect(server.seen.length).toBe(before + 1); // not retried
    await http.close();
  });
});
