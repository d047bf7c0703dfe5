import type { Clock } from "../../src/api/clock.ts";

/** A clock whose time moves only when every sleeper before it has been woken, in time order. */
export class FakeClock implements Clock {
  private t = 0;
  private sleepers: { at: number; resolve: () => void }[] = [];

  now(): number {
    return this.t;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const sleeper = { at: this.t + Math.max(0, ms), resolve };
      this.sleepers.push(sleeper);
      // A stop wakes the sleeper at once, without moving the clock.
      signal?.addEventListener(
        "abort",
        () => {
          this.sleepers = this.sleepers.filter((s) => s !== sleeper);
          reject(signal.reason);
        },
        { once: true },
      );
    });
  }

  /** Sleepers not yet woken (a test can wait until a request is parked on the clock). */
  get pending(): number {
    return this.sleepers.length;
  }

  /** Lets promise chains settle, then wakes the earliest sleeper (if any): one step of `runAll`. */
  async runOne(): Promise<void> {
    await settle();
    if (this.sleepers.length === 0) return;
    this.sleepers.sort((a, b) => a.at - b.at);
    const next = this.sleepers.shift()!;
    this.t = Math.max(this.t, next.at);
    next.resolve();
    await settle();
  }

  /** Runs until no sleeper is left, letting promise chains settle between wake-ups. */
  async runAll(): Promise<void> {
    for (;;) {
      await settle();
      if (this.sleepers.length === 0) return;
      this.sleepers.sort((a, b) => a.at - b.at);
      const next = this.sleepers.shift()!;
      this.t = Math.max(this.t, next.at);
      next.resolve();
    }
  }
}

/** A macrotask turn: every pending microtask (promise continuation) has run by then. */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
