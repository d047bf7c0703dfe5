import type { Clock } from "./clock.ts";

/** What the HTTP layer needs of a limiter; a quota gate or a shared per-key limiter fits it. */
export interface Limiter {
  acquire(signal?: AbortSignal): Promise<number>;
  restamp(slot: number, sentAt: number): void;
  widenMargin(): void;
}

/**
 * 4% of a second: absorbs the jitter between our start (re-stamped when the request really left)
 * and the server's arrival stamp. Every millisecond costs 0.1% of the budget, but a 429 costs
 * more: its pause, a wider margin for the rest of the run, and the registry's goodwill. 20 ms was
 * tried and drew several 429s per backfill on a loaded machine, each widening the margin further.
 */
export const DEFAULT_MARGIN_MS = 40;
const MARGIN_STEP_MS = 10;

/**
 * Lets at most `limit` requests start in any window of `windowMs` plus a safety margin: the
 * server counts arrivals, which trail our starts by a varying delay (network, event loop), so a
 * request started just over a second after another may still land in the same second there.
 * Starts are also spread evenly (one per window/limit): a burst would queue at the server, whose
 * arrival stamps then bunch up. Callers are served in the order they asked. A 429 from the server
 * pauses everyone until its Retry-After has passed, and widens the margin: the server counts more
 * strictly than we assumed.
 */
export class RateLimiter {
  readonly limit: number;
  private readonly baseWindowMs: number;
  private marginMs: number;
  private readonly maxMarginMs: number;
  /** Start times of the last `limit` requests, oldest first. */
  private readonly starts: number[] = [];
  private pausedUntil = 0;
  private lastGrant = Number.NEGATIVE_INFINITY;
  private tail: Promise<unknown> = Promise.resolve();
  private waitingCount = 0;
  private waitedMs = 0;

  constructor(
    limit: number,
    private readonly clock: Clock,
    options: { windowMs?: number; marginMs?: number } = {},
  ) {
    if (!Number.isInteger(limit) || limit <= 0) throw new RangeError("rate limit must be a positive integer");
    this.limit = limit;
    this.baseWindowMs = options.windowMs ?? 1000;
    this.marginMs = options.marginMs ?? DEFAULT_MARGIN_MS;
    this.maxMarginMs = Math.max(this.marginMs, this.baseWindowMs / 4);
  }

  /**
   * The server refused a request for its rate: keep a wider distance from now on. Small steps:
   * one refusal is usually one late packet, and every step costs 1% of the budget for good.
   */
  widenMargin(): void {
    this.marginMs = Math.min(this.maxMarginMs, this.marginMs + MARGIN_STEP_MS);
  }

  get currentMarginMs(): number {
    return this.marginMs;
  }

  /**
   * Resolves when the caller may start one request, with the time recorded for it. The caller
   * may later `restamp` it with the moment the request really went out. A stop (`signal`) ends
   * the wait at once; the turn already queued is then granted to nobody and simply passes.
   */
  acquire(signal?: AbortSignal): Promise<number> {
    this.waitingCount++;
    const turn = this.tail.then(() => this.waitForSlot());
    this.tail = turn.catch(() => {});
    const counted = turn.finally(() => {
      this.waitingCount--;
    });
    return signal ? untilAborted(counted, signal) : counted;
  }

  /** Holds every caller back until `untilMs` (server asked us to slow down). */
  pause(untilMs: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, untilMs);
  }

  /** Callers waiting right now, and total time spent waiting (for metrics). */
  stats(): { waiting: number; waitedMs: number } {
    return { waiting: this.waitingCount, waitedMs: this.waitedMs };
  }

  /**
   * Moves a recorded start to when the request actually left (after connecting, say), so the
   * window reflects what the server will count.
   */
  restamp(slot: number, sentAt: number): void {
    const index = this.starts.indexOf(slot);
    if (index < 0 || sentAt <= slot) return;
    this.starts[index] = sentAt;
    this.starts.sort((a, b) => a - b);
  }

  private async waitForSlot(): Promise<number> {
    for (;;) {
      const now = this.clock.now();
      const oldest = this.starts.length >= this.limit ? this.starts[0]! : Number.NEGATIVE_INFINITY;
      const span = this.baseWindowMs + this.marginMs;
      const spacing = span / this.limit;
      const readyAt = Math.max(this.pausedUntil, oldest + span, this.lastGrant + spacing);
      if (readyAt <= now) {
        // The spacing counts from when this turn was due, not from when the timer fired: a timer
        // late by a few milliseconds (a busy event loop) would otherwise push every later start
        // back by as much, and the rate would sink well below the limit. It catches up by at
        // most half a spacing; the one-second window above, kept on real start times, still holds.
        this.lastGrant = Math.max(readyAt, now - spacing / 2);
        this.starts.push(now);
        if (this.starts.length > this.limit) this.starts.shift();
        return now;
      }
      this.waitedMs += readyAt - now;
      await this.clock.sleep(readyAt - now);
    }
  }
}

/** Settles with `promise`, or rejects with the signal's reason as soon as it aborts. */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/**
 * One limiter per API key, whatever the interface: the registry counts requests per key, so the
 * watch and search clients of one process (which share REGWATCH_API_KEY by default) must draw from
 * the same budget. Keyed per clock as well, so tests on separate simulated clocks stay apart.
 * The key is only held in memory as a map key; it is never logged or exposed.
 */
const byClock = new WeakMap<Clock, Map<string, RateLimiter>>();

export function limiterForKey(apiKey: string, limit: number, clock: Clock): RateLimiter {
  let byKey = byClock.get(clock);
  if (!byKey) {
    byKey = new Map();
    byClock.set(clock, byKey);
  }
  let limiter = byKey.get(apiKey);
  if (!limiter) {
    limiter = new RateLimiter(limit, clock);
    byKey.set(apiKey, limiter);
  }
  return limiter;
}

/**
 * A limiter that runs `before` ahead of every acquisition (a quota claim, say) and otherwise is
 * `inner`: lets the search client count its quota while pacing on the key's shared limiter.
 */
export function gatedLimiter(inner: Limiter, before: () => void | Promise<void>): Limiter {
  return {
    async acquire(signal) {
      await before();
      return inner.acquire(signal);
    },
    restamp: (slot, sentAt) => inner.restamp(slot, sentAt),
    widenMargin: () => inner.widenMargin(),
  };
}
