/**
 * Fair turns on one shared limiter. When change files live on the watch origin, the window
 * requests and the file requests draw on that origin's one budget; a plain first-come queue would
 * let whichever side asks most (a backlog of 10,000 files, say) hold nearly every turn. Here each
 * side is a lane with its own queue, and each turn the shared limiter grants is given, when it
 * comes, to the next lane in rotation that has someone waiting: with both lanes waiting, turns
 * alternate; a lane alone takes every turn. A caller thus waits for at most (lanes - 1) turns of
 * the other lanes between two of its own lane's turns, however long their queues are.
 */
import type { Limiter } from "./rate-limiter.ts";

interface Waiter {
  resolve: (slot: number) => void;
  reject: (reason: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

export class FairShare {
  private readonly queues = new Map<string, Waiter[]>();
  private readonly order: string[] = [];
  /** Index in `order` of the lane that had the last turn. */
  private last = -1;
  private pumping = false;
  private readonly granted = new Map<string, number>();

  constructor(private readonly inner: Limiter) {}

  /** A limiter for one lane (created on first use; lanes rotate in the order they were made). */
  lane(name: string): Limiter {
    if (!this.queues.has(name)) {
      this.queues.set(name, []);
      this.order.push(name);
      this.granted.set(name, 0);
    }
    return {
      acquire: (signal) => this.acquire(name, signal),
      restamp: (slot, sentAt) => this.inner.restamp(slot, sentAt),
      answered: (slot, endpoint, roundTripMs) => this.inner.answered?.(slot, endpoint, roundTripMs),
      ended: (slot) => this.inner.ended(slot),
      widenMargin: () => this.inner.widenMargin(),
    };
  }

  /** Turns granted per lane so far, and callers waiting per lane (for tests and metrics). */
  stats(): Record<string, { granted: number; waiting: number }> {
    const out: Record<string, { granted: number; waiting: number }> = {};
    for (const name of this.order)
      out[name] = { granted: this.granted.get(name) ?? 0, waiting: this.queues.get(name)?.length ?? 0 };
    return out;
  }

  private acquire(name: string, signal?: AbortSignal): Promise<number> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<number>((resolve, reject) => {
      const queue = this.queues.get(name)!;
      const waiter: Waiter = { resolve, reject, signal };
      if (signal) {
        // A stop leaves the queue at once; a turn already asked of the limiter goes to the next waiter.
        waiter.onAbort = () => {
          const at = queue.indexOf(waiter);
          if (at >= 0) queue.splice(at, 1);
          reject(signal.reason);
        };
        signal.addEventListener("abort", waiter.onAbort, { once: true });
      }
      queue.push(waiter);
      void this.pump();
    });
  }

  /** One turn asked of the shared limiter at a time, handed out when it comes. */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.waiting() > 0) {
        let slot: number;
        try {
          slot = await this.inner.acquire();
        } catch (error) {
          // The limiter itself failed: every waiter hears it, none is left hanging.
          for (const queue of this.queues.values())
            for (const waiter of queue.splice(0)) this.settle(waiter, () => waiter.reject(error));
          return;
        }
        const next = this.nextLane();
        if (next === undefined) continue; // everyone stopped meanwhile: the turn passes unused
        const waiter = this.queues.get(next)!.shift()!;
        this.granted.set(next, (this.granted.get(next) ?? 0) + 1);
        this.settle(waiter, () => waiter.resolve(slot));
      }
    } finally {
      this.pumping = false;
    }
  }

  private settle(waiter: Waiter, action: () => void): void {
    if (waiter.onAbort) waiter.signal?.removeEventListener("abort", waiter.onAbort);
    action();
  }

  private waiting(): number {
    let n = 0;
    for (const queue of this.queues.values()) n += queue.length;
    return n;
  }

  /** The lane after the last one served that has a waiter, or undefined when none has. */
  private nextLane(): string | undefined {
    for (let step = 1; step <= this.order.length; step++) {
      const index = (this.last + step) % this.order.length;
      const name = this.order[index]!;
      if (this.queues.get(name)!.length > 0) {
        this.last = index;
        return name;
      }
    }
    return undefined;
  }
}
