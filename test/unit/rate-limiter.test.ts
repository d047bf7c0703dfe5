import { describe, expect, it } from "vitest";
import { ArrivalLag } from "../../src/api/arrival-lag.ts";
import { RateLimiter } from "../../src/api/rate-limiter.ts";
import { backoffDelay, isRetryable, parseRetryAfter } from "../../src/api/retry.ts";
import { FakeClock } from "../helpers/fake-clock.ts";

function maxInAnyWindow(starts: number[], windowMs: number): number {
  let max = 0;
  for (let i = 0, j = 0; i < starts.length; i++) {
    while (starts[i]! - starts[j]! >= windowMs - 1e-6) j++; // float spacing: 30 × 33.33… ms
    max = Math.max(max, i - j + 1);
  }
  return max;
}

/** A simulated clock whose `n`-th sleeper wakes `lateBy(n)` ms late (a busy event loop, say). */
function lateClock(lateBy: (n: number) => number): FakeClock {
  let sleeps = 0;
  return new (class extends FakeClock {
    override sleep(ms: number, signal?: AbortSignal): Promise<void> {
      return super.sleep(ms + lateBy(++sleeps), signal);
    }
  })();
}

/** Asks for `count` turns at once; when each was granted. */
async function grantTimes(limiter: RateLimiter, clock: FakeClock, count: number): Promise<number[]> {
  const starts: number[] = [];
  const all = Array.from({ length: count }, () => limiter.acquire().then(() => starts.push(clock.now())));
  await clock.runAll();
  await Promise.all(all);
  return starts;
}

describe("rate limiter", () => {
  it("never lets more than the limit start in any 1-second window, and uses the budget fully", async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter(30, clock, { marginMs: 0 });
    const starts: number[] = [];
    const all = Array.from({ length: 300 }, () => limiter.acquire().then(() => starts.push(clock.now())));
    await clock.runAll();
    await Promise.all(all);
    expect(starts).toHaveLength(300);
    expect(maxInAnyWindow(starts, 1000)).toBe(30);
    // Evenly spread, one every 1000/30 ms: the budget is used fully, without bursts.
    expect(starts.at(-1)).toBeCloseTo((299 * 1000) / 30, 6);
    const gaps = starts.slice(1).map((t, i) => t - starts[i]!);
    expect(Math.min(...gaps)).toBeCloseTo(1000 / 30, 6);
  });

  it("keeps the rate when its timers fire late, and still never exceeds the limit", async () => {
    // A busy event loop wakes every sleeper 5 ms late: the spacing must not grow by as much.
    const clock = lateClock(() => 5);
    const starts = await grantTimes(new RateLimiter(30, clock, { marginMs: 20 }), clock, 300);
    expect(maxInAnyWindow(starts, 1020)).toBeLessThanOrEqual(30);
    // 299 spacings of 1020/30 ms would be 10,166 ms; 5 ms lost at each would be 11,661 ms.
    expect(starts.at(-1)!).toBeLessThan(10_166 * 1.01);
  });

  it("grants the turns a late timer held back as soon as it fires: the schedule is kept in absolute time", async () => {
    // A loaded machine: every sleeper wakes 40 ms late, more than half the spacing of 33.3 ms.
    const clock = lateClock(() => 40);
    const starts = await grantTimes(new RateLimiter(30, clock, { marginMs: 20 }), clock, 300);
    expect(maxInAnyWindow(starts, 1020)).toBeLessThanOrEqual(30);
    // The schedule's 299 spacings of 1020/30 ms are 10,166 ms. Only the turns the window decides
    // (one a second) still lose their 40 ms; losing it at every turn would take about 17,000 ms.
    expect(starts.at(-1)!).toBeLessThan(10_166 * 1.05);
  });

  it("makes up wake-ups that come late now and then, in bursts no larger than they held back", async () => {
    // Every tenth wake-up comes 100 ms late (a garbage collection, a core taken by another process).
    const clock = lateClock((n) => (n % 10 === 0 ? 100 : 0));
    const starts = await grantTimes(new RateLimiter(30, clock, { marginMs: 20 }), clock, 300);
    expect(maxInAnyWindow(starts, 1020)).toBeLessThanOrEqual(30);
    // Only the stalls that fall on a turn the window decides are lost (the window follows the
    // real starts); losing every stall would end past 12,000 ms.
    expect(starts.at(-1)!).toBeLessThan(10_166 * 1.08);
    const together = Math.max(...starts.map((t) => starts.filter((u) => u === t).length));
    expect(together).toBeLessThanOrEqual(Math.ceil(100 / (1000 / 30)) + 1);
  });

  it("owes nothing for a time nobody asked: after an idle spell, turns are spaced again", async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter(30, clock, { marginMs: 0 });
    await Promise.all([limiter.acquire(), clock.runAll()]);
    const idle = clock.sleep(5000);
    await clock.runAll();
    await idle;
    const starts = await grantTimes(limiter, clock, 5);
    expect(starts).toHaveLength(5);
    for (const [i, at] of starts.entries()) expect(at).toBeCloseTo(5000 + (i * 1000) / 30, 6);
  });

  it("holds everyone back while the server's Retry-After runs", async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter(30, clock, { marginMs: 0 });
    limiter.pause(2500);
    let startedAt = -1;
    const p = limiter.acquire().then(() => {
      startedAt = clock.now();
    });
    await clock.runAll();
    await p;
    expect(startedAt).toBe(2500);
  });
});

describe("retry policy", () => {
  it("reads Retry-After as seconds or as an HTTP date", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter("3", now)).toBe(3000);
    expect(parseRetryAfter("0.5", now)).toBe(500);
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:10 GMT", now)).toBe(10_000);
    expect(parseRetryAfter("Wed, 31 Dec 2025 23:59:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  it("backs off exponentially with jitter, never below Retry-After", () => {
    expect(backoffDelay(1, undefined, () => 0)).toBe(250);
    expect(backoffDelay(1, undefined, () => 1)).toBe(500);
    expect(backoffDelay(4, undefined, () => 1)).toBe(4000);
    expect(backoffDelay(20, undefined, () => 1)).toBe(30_000);
    expect(backoffDelay(1, 5000, () => 0.5)).toBe(5000);
  });

  it("retries only transient failures", () => {
    expect(isRetryable("HTTP_SERVER")).toBe(true);
    expect(isRetryable("HTTP_RATE_LIMITED")).toBe(true);
    expect(isRetryable("NETWORK")).toBe(true);
    expect(isRetryable("HTTP_CLIENT")).toBe(false);
    expect(isRetryable("HTTP_AUTH")).toBe(false);
    expect(isRetryable("REFUSED_ORIGIN")).toBe(false);
  });
});

describe("rate limiter margin", () => {
  it("widens its margin after the server refuses a request for its rate, up to a quarter second", () => {
    const limiter = new RateLimiter(30, new FakeClock(), { marginMs: 40 });
    limiter.widenMargin();
    expect(limiter.currentMarginMs).toBe(50);
    for (let i = 0; i < 100; i++) limiter.widenMargin();
    expect(limiter.currentMarginMs).toBe(250);
  });
});

/** Deterministic numbers in [0, 1) for the simulated network. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

/**
 * Sends `count` requests through `limiter` on a simulated network: each reaches the server
 * `lag` ms after it left (mostly 0-2 ms, now and then up to 30 ms) and is answered 50 ms plus
 * that lag after it left. Returns the server's arrival stamps, in order. As the HTTP client
 * does, each request is stamped as sent when it leaves (`restamp`) and ended after its answer;
 * `tell` says whether the limiter hears of the answer itself.
 */
async function simulate(
  limiter: RateLimiter,
  clock: FakeClock,
  count: number,
  tell: boolean,
  lagOf: (random: () => number, sentAt: number) => number = (random) =>
    random() < 0.05 ? 30 * random() : 2 * random(),
  processingOf: (sentAt: number) => number = () => 50,
) {
  const random = seededRandom(16);
  const arrivals: number[] = [];
  const all = Array.from({ length: count }, async () => {
    const slot = await limiter.acquire();
    const sentAt = clock.now();
    limiter.restamp(slot, sentAt);
    const lag = lagOf(random, sentAt);
    const roundTrip = lag + processingOf(sentAt);
    arrivals.push(sentAt + lag);
    await clock.sleep(roundTrip);
    if (tell) limiter.answered(slot, "GET /v2/lists/:key/changes", roundTrip);
    limiter.ended(slot);
  });
  await clock.runAll();
  await Promise.all(all);
  return arrivals.sort((a, b) => a - b);
}

describe("rate limiter and measured arrival delays", () => {
  it("bounds an endpoint's arrival delay by its round trip over the quickest one, once calibrated", () => {
    const lag = new ArrivalLag(3);
    expect(lag.observe("GET /files", 60)).toBeUndefined();
    expect(lag.observe("GET /files", 52)).toBeUndefined();
    expect(lag.observe("GET /files", 55)).toBeUndefined();
    expect(lag.observe("GET /files", 70)).toBe(18);
    // Each endpoint has its own quickest round trip: a slow one is not judged by a fast one.
    expect(lag.observe("GET /v2/lists", 400)).toBeUndefined();
    expect(lag.observe("GET /files", Number.NaN)).toBeUndefined();
  });

  it("keeps each request's distance to its measured delay: nearly the full budget, never over it", async () => {
    const clock = new FakeClock();
    const arrivals = await simulate(new RateLimiter(30, clock), clock, 900, true);
    // The server, counting arrivals in any one-second window, never sees more than 30.
    expect(maxInAnyWindow(arrivals, 1000)).toBeLessThanOrEqual(30);
    // 899 spacings at exactly 30/s take 29,967 ms; the measured delays (and the first, uncalibrated, answers) cost under 2%.
    expect(arrivals.at(-1)!).toBeLessThan(29_967 * 1.02);
  });

  it("keeps more than the default distance after a request the server held back longer", async () => {
    // Now and then the server stalls: a request is stamped 300-900 ms after it left.
    const clock = new FakeClock();
    const stalls = (random: () => number) => (random() < 0.03 ? 300 + 600 * random() : 2 * random());
    const arrivals = await simulate(new RateLimiter(30, clock), clock, 900, true, stalls);
    expect(maxInAnyWindow(arrivals, 1000)).toBeLessThanOrEqual(30);
  });

  it("keeps its distance when the server stalls before an endpoint is calibrated", async () => {
    // The server is busy from 200 to 900 ms (answering big lists as a sync starts): everything
    // sent meanwhile is stamped as it frees up, bunched, among the endpoint's first answers.
    const clock = new FakeClock();
    const busy = (random: () => number, sentAt: number) =>
      sentAt >= 200 && sentAt < 900 ? 900 - sentAt + random() : 2 * random();
    const arrivals = await simulate(new RateLimiter(30, clock), clock, 300, true, busy);
    expect(maxInAnyWindow(arrivals, 1000)).toBeLessThanOrEqual(30);
  });

  it("keeps its distance when the server holds requests back for longer than a window", async () => {
    // The server stops for two seconds, once before the endpoint is calibrated and once after:
    // nothing sent meanwhile is answered or stamped until it frees up, and then all at once.
    const clock = new FakeClock();
    const stops = (random: () => number, sentAt: number) => {
      for (const [from, to] of [
        [300, 2300],
        [6000, 8000],
      ] as const)
        if (sentAt >= from && sentAt < to) return to - sentAt + random();
      return 2 * random();
    };
    const arrivals = await simulate(new RateLimiter(30, clock), clock, 600, true, stops);
    expect(maxInAnyWindow(arrivals, 1000)).toBeLessThanOrEqual(30);
  });

  it("keeps its distance when every early answer was slow, and then the server turns quiet", async () => {
    // For its first three seconds the server is busy: every request is stamped 20-100 ms after it
    // left and answered 80 ms later than usual, so the quickest early round trip holds a delay
    // too. Then it turns quiet, and requests arrive as they leave.
    const clock = new FakeClock();
    const lag = (random: () => number, sentAt: number) => (sentAt < 3000 ? 20 + 80 * random() : 0);
    const processing = (sentAt: number) => (sentAt < 3000 ? 130 : 50);
    const arrivals = await simulate(new RateLimiter(30, clock), clock, 300, true, lag, processing);
    expect(maxInAnyWindow(arrivals, 1000)).toBeLessThanOrEqual(30);
  });

  it("keeps a request that ended unanswered counted until a window after it ended", async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter(30, clock);
    const first = await limiter.acquire();
    limiter.restamp(first, clock.now());
    // Unanswered for three seconds, then cut off: it may have reached the server just before.
    const unanswered = clock.sleep(3000);
    await clock.runAll();
    await unanswered;
    limiter.ended(first);
    const slots: number[] = [];
    const all = Array.from({ length: 30 }, async () => slots.push(await limiter.acquire()));
    await clock.runAll();
    await Promise.all(all);
    // 29 go in the second after it ended; the 30th waits until that request no longer counts.
    expect(slots[28]! - 3000).toBeLessThan(1000);
    expect(slots[29]!).toBeGreaterThanOrEqual(3000 + 1000);
  });

  it("keeps the default distance after requests whose delay it was not told", async () => {
    const clock = new FakeClock();
    const arrivals = await simulate(new RateLimiter(30, clock), clock, 900, false);
    expect(maxInAnyWindow(arrivals, 1000)).toBeLessThanOrEqual(30);
    // 40 ms past every second: about 4% slower than the limit.
    expect(arrivals.at(-1)!).toBeGreaterThan(29_967 * 1.035);
  });
});
