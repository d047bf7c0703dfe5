import type { Clock } from "./clock.ts";

/** 4% of a second: absorbs the usual jitter between our start and the server's arrival stamp. */
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
   * may later `restamp` it with the moment the request really went out.
   */
  acquire(): Promise<number> {
    this.waitingCount++;
    const turn = this.tail.then(() => this.waitForSlot());
    this.tail = turn.catch(() => {});
    return turn.finally(() => {
      this.waitingCount--;
    });
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
      const readyAt = Math.max(this.pausedUntil, oldest + span, this.lastGrant + span / this.limit);
      if (readyAt <= now) {
        this.lastGrant = now;
        this.starts.push(now);
        if (this.starts.length > this.limit) this.starts.shift();
        return now;
      }
      this.waitedMs += readyAt - now;
      await this.clock.sleep(readyAt - now);
    }
  }
}
