/** The registry's two consumption limits: requests per second per key, and searches per month. */

/**
 * Sliding one-second window per caller. Every arrival counts, refused ones included, which is how
 * a strict gateway treats a client that keeps pushing.
 */
export class SlidingWindowLimiter {
  private readonly arrivals = new Map<string, number[]>();

  /** Records an arrival; returns null when allowed, else the seconds to wait before retrying. */
  arrive(bucket: string, limit: number, nowMs: number): number | null {
    const windowStart = nowMs - 1000;
    const times = (this.arrivals.get(bucket) ?? []).filter((t) => t > windowStart);
    times.push(nowMs);
    this.arrivals.set(bucket, times);
    if (times.length <= limit) return null;
    // The window frees a slot when its oldest counted arrival is a second old.
    const oldest = times[times.length - limit - 1] ?? nowMs;
    return Math.max(1, Math.ceil((oldest + 1000 - nowMs) / 1000));
  }
}

/** Monthly search quota per key; only requests that were served count. */
export class MonthlyQuota {
  private readonly used = new Map<string, number>();

  constructor(private readonly limit: number) {}

  /** Consumes one request of `month`; false when the quota is already used up. */
  take(key: string, month: string): boolean {
    const id = `${key}\n${month}`;
    const used = this.used.get(id) ?? 0;
    if (used >= this.limit) return false;
    this.used.set(id, used + 1);
    return true;
  }
}
