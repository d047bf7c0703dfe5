import type { Clock } from "./clock.ts";

/**
 * Lets at most `limit` requests start in any window of `windowMs` (plus a safety margin, since
 * the server counts arrivals, which trail our starts by a varying delay). Callers are served in
 * the order they asked. A 429 from the server pauses everyone until its Retry-After has passed.
 */
export class RateLimiter {
  readonly limit: number;
  private readonly windowMs: number;
  /** Start times of the last `limit` requests, oldest first. */
  private readonly starts: number[] = [];
  private pausedUntil = 0;
  private tail: Promise<void> = Promise.resolve();
  private waitingCount = 0;
  private waitedMs = 0;

  constructor(
    limit: number,
    private readonly clock: Clock,
    options: { windowMs?: number; marginMs?: number } = {},
  ) {
    if (!Number.isInteger(limit) || limit <= 0) throw new RangeError("rate limit must be a positive integer");
    this.limit = limit;
    this.windowMs = (options.windowMs ?? 1000) + (options.marginMs ?? 20);
  }

  /** Resolves when the caller may start one request; the start is recorded at that moment. */
  acquire(): Promise<void> {
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

  private async waitForSlot(): Promise<void> {
    for (;;) {
      const now = this.clock.now();
      const oldest = this.starts.length >= this.limit ? this.starts[0]! : Number.NEGATIVE_INFINITY;
      const readyAt = Math.max(this.pausedUntil, oldest + this.windowMs);
      if (readyAt <= now) {
        this.starts.push(now);
        if (this.starts.length > this.limit) this.starts.shift();
        return;
      }
      this.waitedMs += readyAt - now;
      await this.clock.sleep(readyAt - now);
    }
  }
}
