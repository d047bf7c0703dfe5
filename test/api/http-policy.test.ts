/**
 * HttpClient behaviours the other files of test/api leave open, on the simulated clock against
 * a real server: which 4xx are final, a long Retry-After in its date form, the byte cap at its
 * exact edge and per request, and which answers widen the limiter's margin.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "../../src/api/errors.ts";
import { RateLimiter } from "../../src/api/rate-limiter.ts";
import { driveUntilSettled } from "../helpers/drive-clock.ts";
import { FakeClock } from "../helpers/fake-clock.ts";
import { type HostileServer, json, startHostileServer } from "../helpers/hostile-server.ts";
import { testClient } from "./setup.ts";

let server: HostileServer;
beforeAll(async () => {
  server = await startHostileServer();
});
afterAll(() => server.close());

const get = () => ({ method: "GET" as const, url: new URL("/x", server.origin), endpoint: "GET /x" });

/** Answers in turn with each status (then 200), counting what was asked. */
function answerInTurn(...answers: { status: number; headers?: Record<string, string> }[]): void {
  let n = 0;
  server.answer = (_req, res) => {
    const next = answers[n++];
    if (next) json(res, next.status, { message: `answer ${n}` }, next.headers ?? {});
    else json(res, 200, { ok: true });
  };
}

describe("final 4xx answers", () => {
  for (const [status, code] of [
    [400, "HTTP_CLIENT"],
    [401, "HTTP_AUTH"],
    [403, "HTTP_AUTH"],
    [409, "HTTP_CLIENT"],
    [422, "HTTP_CLIENT"],
  ] as const) {
    it(`sends a request answered ${status} once, fails it as ${code}, and waits for nothing`, async () => {
      answerInTurn({ status });
      const { http, clock } = testClient(server.origin, { maxAttempts: 6 });
      const before = server.seen.length;
      const { error } = await driveUntilSettled(clock, http.request(get()));
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe(code);
      expect((error as ApiError).status).toBe(status);
      expect((error as ApiError).attempts).toBe(1);
      expect(server.seen.length - before).toBe(1);
      expect(clock.now()).toBe(0);
      await http.close();
    });
  }
});

describe("a long Retry-After", () => {
  it("in its HTTP-date form fails the request at once, like the seconds form", async () => {
    const clock = new FakeClock();
    // The simulated clock reads 0 (1970-01-01): a date one hour later asks for 3,600 s.
    answerInTurn({ status: 503, headers: { "retry-after": new Date(3_600_000).toUTCString() } });
    const { http } = testClient(server.origin, { clock, maxRetryAfterMs: 300_000, maxAttempts: 6 });
    const before = server.seen.length;
    const { error } = await driveUntilSettled(clock, http.request(get()));
    expect((error as ApiError).code).toBe("RETRY_AFTER_TOO_LONG");
    expect((error as ApiError).message).toMatch(/wait 3600 s/);
    expect(server.seen.length - before).toBe(1);
    expect(clock.now()).toBe(0);
    await http.close();
  });

  it("within the bound is waited for, on the simulated clock, before the one retry", async () => {
    answerInTurn({ status: 503, headers: { "retry-after": "120" } });
    const { http, clock } = testClient(server.origin, { maxRetryAfterMs: 300_000, maxAttempts: 6 });
    const before = server.seen.length;
    const { error } = await driveUntilSettled(clock, http.request(get()));
    expect(error).toBeUndefined();
    expect(server.seen.length - before).toBe(2);
    expect(clock.now()).toBeGreaterThanOrEqual(120_000);
    await http.close();
  });
});

describe("the body cap", () => {
  const CAP = { bytes: 1_000, name: "REGWATCH_MAX_RESPONSE_BYTES" };
  const body = (size: number) => `"${"x".repeat(size - 2)}"`;

  it("accepts a body of exactly the cap and refuses one byte more, declared or not", async () => {
    for (const declared of [true, false]) {
      for (const size of [1_000, 1_001]) {
        server.answer = (_req, res) => {
          res.writeHead(200, {
            "content-type": "application/json",
            ...(declared ? { "content-length": String(size) } : {}),
          });
          res.end(body(size));
        };
        const { http, clock } = testClient(server.origin, { cap: CAP, maxAttempts: 3 });
        const before = server.seen.length;
        const { value, error } = await driveUntilSettled(clock, http.request(get()));
        if (size === 1_000) {
          expect(error).toBeUndefined();
          expect(value!.body.length).toBe(1_000);
        } else {
          expect((error as ApiError).code).toBe("TOO_LARGE");
          expect((error as ApiError).message).toMatch(/REGWATCH_MAX_RESPONSE_BYTES/);
          // A body too large is not asked for again: it would be as large the next time.
          expect(server.seen.length - before).toBe(1);
        }
        await http.close();
      }
    }
  });

  it("takes a request's own cap over the client's, naming it", async () => {
    server.answer = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(body(600));
    };
    const { http, clock } = testClient(server.origin, { cap: CAP });
    const small = { bytes: 500, name: "REGWATCH_MAX_FILE_BYTES" };
    const { error } = await driveUntilSettled(clock, http.request({ ...get(), cap: small }));
    expect((error as ApiError).code).toBe("TOO_LARGE");
    expect((error as ApiError).message).toMatch(/500 bytes.*REGWATCH_MAX_FILE_BYTES/);
    const within = await driveUntilSettled(clock, http.request(get()));
    expect(within.error).toBeUndefined();
    await http.close();
  });
});

describe("the limiter's margin", () => {
  it("widens on every 429, with or without Retry-After, and not on other failures", async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter(30, clock, { marginMs: 40 });
    answerInTurn({ status: 429 }, { status: 503 }, { status: 429, headers: { "retry-after": "1" } });
    const { http } = testClient(server.origin, { clock, limiter, maxAttempts: 6 });
    const before = server.seen.length;
    const { error } = await driveUntilSettled(clock, http.request(get()));
    expect(error).toBeUndefined();
    expect(server.seen.length - before).toBe(4);
    expect(limiter.currentMarginMs).toBe(60);
    await http.close();
  });

  it("spaces the requests that follow by the widened window", async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter(2, clock, { marginMs: 40 });
    // Grants are stamped on the simulated clock as the limiter hands them out.
    const grants: number[] = [];
    const { http } = testClient(server.origin, {
      clock,
      maxAttempts: 6,
      limiterFor: () => ({
        acquire: async (signal) => {
          const slot = await limiter.acquire(signal);
          grants.push(clock.now());
          return slot;
        },
        restamp: (slot, at) => limiter.restamp(slot, at),
        answered: (slot, endpoint, ms) => limiter.answered(slot, endpoint, ms),
        ended: (slot) => limiter.ended(slot),
        widenMargin: () => limiter.widenMargin(),
      }),
    });
    answerInTurn({ status: 429 });
    expect((await driveUntilSettled(clock, http.request(get()))).error).toBeUndefined();
    expect(limiter.currentMarginMs).toBe(50);
    grants.length = 0;
    const burst = Promise.all([http.request(get()), http.request(get()), http.request(get())]);
    expect((await driveUntilSettled(clock, burst)).error).toBeUndefined();
    // Two per second: the third of a burst leaves one window plus the widened margin after the first.
    expect(grants).toHaveLength(3);
    expect(grants[2]! - grants[0]!).toBeGreaterThanOrEqual(1_050);
    await http.close();
  });
});
