/**
 * Per-receiver limits of the deliverer: at most N messages in flight to one receiver, and a
 * circuit breaker that pauses a receiver only after consecutive failures of different messages
 * (one bad message, or a receiver that fails each message once or twice, does not stall the rest).
 * After a pause one message probes the receiver; its success closes the circuit, its failure
 * pauses the receiver again for longer. Pure state plus a semaphore: no I/O of its own.
 */

export interface GateOptions {
  /** Messages in flight at once per receiver. */
  concurrency: number;
  /** Consecutive failures, each of a different message, that pause a receiver. */
  threshold: number;
  /** First pause; it doubles with each pause in a row, up to `maxPauseMs`. */
  pauseMs: number;
  maxPauseMs: number;
  /** Whether the breaker is used at all (the operator's `alerts deliver` tries everything). */
  breaker: boolean;
  now: () => Date;
}

interface TargetState {
  inFlight: number;
  waiting: Array<() => void>;
  /** Messages that failed in a row since the last success. */
  failing: Set<number>;
  pausedUntil?: number;
  pauses: number;
  /** A probe after a pause is in flight: nothing else goes to the receiver meanwhile. */
  probing: boolean;
}

export class TargetGates {
  private readonly targets = new Map<string, TargetState>();

  constructor(private readonly options: GateOptions) {}

  private state(key: string): TargetState {
    let s = this.targets.get(key);
    if (!s) {
      s = { inFlight: 0, waiting: [], failing: new Set(), pauses: 0, probing: false };
      this.targets.set(key, s);
    }
    return s;
  }

  /** Receivers paused now (their messages are not claimed); one whose pause ended is not listed. */
  pausedTargets(): string[] {
    const now = this.options.now().getTime();
    return [...this.targets.entries()]
      .filter(([, s]) => (s.pausedUntil !== undefined && s.pausedUntil > now) || s.probing)
      .map(([key]) => key);
  }

  /**
   * Runs `send` when the receiver has a free slot; "paused" (without running it) when its
   * circuit is open, a probe is already out after a pause, or `signal` was aborted while it
   * waited. What the answer says about the
   * receiver (`judge`) is taken into account before the next message goes.
   */
  async run<T>(
    key: string,
    messageId: number,
    send: () => Promise<T>,
    judge: (result: T) => "ok" | "failed" | "neutral",
    signal?: AbortSignal,
  ): Promise<{ result: T; pausedUntil?: Date } | "paused"> {
    const s = this.state(key);
    while (s.inFlight >= this.options.concurrency) await new Promise<void>((r) => s.waiting.push(r));
    // A deliverer stopping sends nothing more; what waited for a slot is released unsent.
    if (signal?.aborted) {
      s.waiting.shift()?.();
      return "paused";
    }
    if (this.options.breaker && s.pausedUntil !== undefined) {
      if (s.pausedUntil > this.options.now().getTime() || s.probing) {
        s.waiting.shift()?.();
        return "paused";
      }
      s.probing = true;
    }
    s.inFlight++;
    try {
      const result = await send();
      const verdict = judge(result);
      if (verdict === "ok") this.succeeded(key);
      else if (verdict === "neutral") this.neutral(key);
      else return { result, pausedUntil: this.failed(key, messageId) };
      return { result };
    } catch (error) {
      this.neutral(key);
      throw error;
    } finally {
      s.inFlight--;
      s.waiting.shift()?.();
    }
  }

  /** The receiver accepted a message: the circuit closes. */
  succeeded(key: string): void {
    const s = this.state(key);
    s.failing.clear();
    s.pausedUntil = undefined;
    s.pauses = 0;
    s.probing = false;
  }

  /** The receiver failed a message (no answer, 429, 5xx); returns the pause's end when it opens. */
  failed(key: string, messageId: number): Date | undefined {
    const s = this.state(key);
    s.failing.add(messageId);
    const probeFailed = s.probing;
    s.probing = false;
    if (!this.options.breaker || (!probeFailed && s.failing.size < this.options.threshold)) return undefined;
    const pause = Math.min(this.options.pauseMs * 2 ** Math.min(s.pauses, 30), this.options.maxPauseMs);
    s.pauses++;
    s.failing.clear();
    s.pausedUntil = this.options.now().getTime() + pause;
    return new Date(s.pausedUntil);
  }

  /** A message was settled without saying anything about the receiver (refused as such, blocked). */
  neutral(key: string): void {
    this.state(key).probing = false;
  }
}
