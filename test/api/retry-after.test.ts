/**
 * Bullet 2 of issue 10 and the HttpClient gaps of issue 15, on a simulated clock against a real
 * server: a Retry-After beyond the bound fails at once (no pause), a pause holds back its origin
 * only, a stop cuts it, other 4xx are not retried, a 429 widens the limiter's margin.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "../../src/api/errors.ts";
import { RateLimiter } from "../../src/api/rate-limiter.ts";
import { driveUntilSettled } from "../helpers/drive-clock.ts";
import { FakeClock } from "../helpers/fake-clock.ts";
import { type HostileServer, json, startHostileServer } from "../helpers/hostile-server.ts";
import { testClient } from "./setup.ts";

let a: HostileServer;
let b: HostileServer;
beforeAll(async () => {
  [a, b] = await Promise.all([startHostileServer(), startHostileServer()]);
});
afterAll(async () => {
  await Promise.all([a.close(), b.close()]);
});

const get = (server: HostileServer, path = "/x") => ({
  method: "GET" as const,
  url: new URL(path, server.origin),
  endpoint: "GET /x",
});

describe("Retry-After", () => {
  it("fails at once, without pausing, when the server asks for longer than the bound", async () => {
    a.answer = (_req, res) => json(res, 429, { message: "slow down" }, { "retry-after": "3600" });
    const { http, clock } = testClient(a.origin, { maxRetryAfterMs: 300_000, maxAttempts: 6 });
    const before = a.seen.length;
    const { error } = await driveUntilSettled(clock, http.request(get(a)));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe("RETRY_AFTER_TOO_LONG");
    expect((error as ApiError).message).toMatch(/wait 3600 s .*REGWATCH_MAX_RETRY_AFTER_S \(300 s\)/);
    expect(a.seen.length - before).toBe(1);
    expect(clock.now()).toBe(0);
    // Nothing was paused: the next request to the same origin leaves at once.
    a.answer = (_req, res) => json(res, 200, { ok: true });
    const next = await driveUntilSettled(clock, http.request(get(a)));
    expect(next.error).toBeUndefined();
    expect(clock.now()).toBeLessThan(100);
    await http.close();
  });

  it("pauses only the origin that asked, even when origins share one limiter", async () => {
    const clock = new FakeClock();
    const shared = new RateLimiter(30, clock);
    let firstA = true;
    a.answer = (_req, res) => {
      if (firstA) {
        firstA = false;
        json(res, 429, {}, { "retry-after": "5" });
      } else json(res, 200, {});
    };
    b.answer = (_req, res) => json(res, 200, {});
    // Grants are stamped on the simulated clock as the limiter hands them out (the clock runs
    // ahead of socket I/O, so arrival times at the server would not tell).
    const grants: { origin: string; at: number }[] = [];
    const { http } = testClient(a.origin, {
      clock,
      limiterFor: (origin) => ({
        acquire: async (signal) => {
          const slot = await shared.acquire(signal);
          grants.push({ origin, at: clock.now() });
          return slot;
        },
        restamp: (slot, at) => shared.restamp(slot, at),
        answered: (slot, endpoint, ms) => shared.answered(slot, endpoint, ms),
        ended: (slot) => shared.ended(slot),
        widenMargin: () => shared.widenMargin(),
      }),
    });
    const before = a.seen.length;
    const toA = http.request(get(a));
    // a answered 429 and the request is parked on the clock for its Retry-After.
    await a.requests(before + 1);
    while (clock.pending === 0) await new Promise((resolve) => setImmediate(resolve));
    const toB = http.request(get(b));
    const { error } = await driveUntilSettled(clock, Promise.all([toA, toB]));
    expect(error).toBeUndefined();
    const atB = grants.find((x) => x.origin === b.origin)!.at;
    const retriedA = grants.filter((x) => x.origin === a.origin)[1]!.at;
    expect(atB).toBeLessThan(1_000);
    expect(retriedA).toBeGreaterThanOrEqual(5_000);
    await http.close();
  });

  it("a stop cuts the pause short", async () => {
    a.answer = (_req, res) => json(res, 429, {}, { "retry-after": "60" });
    const stop = new AbortController();
    const { http, clock } = testClient(a.origin, { signal: stop.signal });
    const before = a.seen.length;
    const pending = http.request(get(a));
    const settled = driveUntilSettled(clock, pending);
    await a.requests(before + 1);
    while (clock.pending === 0) await new Promise((resolve) => setImmediate(resolve));
    stop.abort(new Error("SIGTERM"));
    const { error } = await settled;
    expect((error as ApiError).code).toBe("ABORTED");
    expect(a.seen.length - before).toBe(1);
    expect(clock.now()).toBeLessThan(60_000);
    await http.close();
  });
});

describe("HttpClient retry policy", () => {
  it("does not retry a 4xx other than 429", async () => {
    a.answer = (_req, res) => json(res, 404, { message: "no such list" });
    const { http, clock } = testClient(a.origin, { maxAttempts: 6 });
    const before = a.seen.length;
    const { error } = await driveUntilSettled(clock, http.request(get(a)));
    expect((error as ApiError).code).toBe("HTTP_CLIENT");
    expect((error as ApiError).message).toMatch(/answered 404: no such list/);
    expect(a.seen.length - before).toBe(1);
    await http.close();
  });

  it("widens the limiter's margin after a 429 and retries after the Retry-After", async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter(30, clock, { marginMs: 40 });
    let n = 0;
    a.answer = (_req, res) => (n++ === 0 ? json(res, 429, {}, { "retry-after": "2" }) : json(res, 200, {}));
    const { http } = testClient(a.origin, { clock, limiter });
    const { error } = await driveUntilSettled(clock, http.request(get(a)));
    expect(error).toBeUndefined();
    expect(limiter.currentMarginMs).toBe(50);
    expect(clock.now()).toBeGreaterThanOrEqual(2_000);
    await http.close();
  });
});
