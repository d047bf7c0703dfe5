/**
 * Pauses ordered by a server's Retry-After, kept per origin: a 429 from one origin holds back
 * requests to that origin only, not every interface sharing a limiter, and a stop cuts the wait.
 */
import type { Clock } from "./clock.ts";

export class OriginPauses {
  private readonly until = new Map<string, number>();

  constructor(private readonly clock: Clock) {}

  pause(origin: string, untilMs: number): void {
    this.until.set(origin, Math.max(this.until.get(origin) ?? 0, untilMs));
  }

  pausedUntil(origin: string): number {
    return this.until.get(origin) ?? 0;
  }

  /** Resolves once the origin's pause (if any) has passed; rejects when `signal` aborts first. */
  async wait(origin: string, signal?: AbortSignal): Promise<void> {
    for (;;) {
      const left = this.pausedUntil(origin) - this.clock.now();
      if (left <= 0) return;
      await this.clock.sleep(left, signal);
    }
  }
}
