import { ArrivalLag } from "./arrival-lag.ts";
import type { Clock } from "./clock.ts";

/** What the HTTP layer needs of a limiter; a quota gate or a shared per-key limiter fits it. */
export interface Limiter {
  acquire(signal?: AbortSignal): Promise<number>;
  /** The request granted at `slot` really left at `sentAt` (its headers were written). */
  restamp(slot: number, sentAt: number): void;
  /** The request granted at `slot` was answered (headers in) `roundTripMs` after it left. */
  answered?(slot: number, endpoint: string, roundTripMs: number): void;
  /**
   * The attempt granted at `slot` is over, answered or not (a timeout, a reset, a stop). Every
   * attempt must end: until then a request that left holds its place in the window.
   */
  ended(slot: number): void;
  widenMargin(): void;
}

/**
 * The distance kept beyond the one-second window after a request whose arrival delay is not
 * known (not answered yet, or its endpoint not yet calibrated): 4% of a second. Every
 * millisecond costs 0.1% of the budget, but a 429 costs more: its pause, a wider margin for the
 * rest of the run, and the registry's goodwill.
 */
export const DEFAULT_MARGIN_MS = 40;
/** Kept beyond a measured arrival delay: millisecond stamps on both sides, and rounding. */
const SAFETY_MS = 5;
const MARGIN_STEP_MS = 10;
/**
 * How far the even schedule may fall behind and still be caught up (see `waitForSlot`): turns a
 * stalled event loop held back are granted at once when it wakes, up to this much of them (at
 * 30 a second, 7 turns), never more than the window allows.
 */
const MAX_CATCH_UP_MS = 250;

interface Start {
  /** When the limiter let it go (the slot handed out); identifies it. */
  granted: number;
  /** When its headers left (restamped), else `granted`. */
  sent: number;
  /**
   * How far past `sent + window` it may still be counted by the server while its delay is not
   * measured: the default, or the time it was in flight when it ended unanswered.
   */
  marginMs: number;
  /** Its answer: the margin is then worked out from the round trip (`marginOf`). */
  answer?: { endpoint: string; roundTripMs: number };
  /**
   * Left (restamped) and neither answered nor ended: the server may not have counted it yet,
   * however long ago it left, so it holds a place in the window until then.
   */
  inFlight: boolean;
}

/**
 * Lets at most `limit` requests be counted by the server in any window of `windowMs`. The
 * server counts arrivals, which trail our sends by a varying delay, so each request is held to
 * count until `sent + window + its margin`: the default margin while its delay is unknown, and
 * once it is answered, the bound on its delay learned from its round trip (`ArrivalLag`, against
 * the quickest round trip known when the bound is needed; the whole round trip until the
 * endpoint is calibrated), however long: the server cannot have counted a request after
 * answering it. A request that has left and is not answered yet holds its place in the window
 * for as long as that lasts: a server that stalls for seconds stamps everything it held back at
 * once when it frees up. A quiet path thus costs a few milliseconds per second of budget instead
 * of the default's 4%, and a jittery one (a loaded server, a long route, a server busy for
 * seconds as it starts) keeps the distance its own requests showed.
 * Starts are also spread evenly (one per window/limit): a burst would queue at the server, whose
 * arrival stamps then bunch up. Callers are served in the order they asked. A 429 from the server
 * pauses everyone until its Retry-After has passed, and widens every margin: the server counts
 * more strictly than we assumed.
 */
export class RateLimiter {
  readonly limit: number;
  private readonly windowMs: number;
  private readonly baseMarginMs: number;
  private widenedMs = 0;
  private readonly maxMarginMs: number;
  /** Recent starts, sent order; kept while they may still be counted. */
  private readonly starts: Start[] = [];
  /** The shortest recent delays between a grant and its send (for `leadMs`). */
  private readonly sendDelays: number[] = [];
  private readonly lag = new ArrivalLag();
  private pausedUntil = 0;
  /** When the last turn was due (its place in the even schedule), and when it was really granted. */
  private lastDue = Number.NEGATIVE_INFINITY;
  private lastGrantedAt = Number.NEGATIVE_INFINITY;
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
    this.windowMs = options.windowMs ?? 1000;
    this.baseMarginMs = options.marginMs ?? DEFAULT_MARGIN_MS;
    this.maxMarginMs = Math.max(this.baseMarginMs, this.windowMs / 4);
  }

  /**
   * The server refused a request for its rate: keep a wider distance from now on. Small steps:
   * one refusal is usually one late packet, and every step costs 1% of the budget for good.
   */
  widenMargin(): void {
    this.widenedMs = Math.min(this.maxMarginMs - this.baseMarginMs, this.widenedMs + MARGIN_STEP_MS);
  }

  /** The margin kept after a request whose arrival delay is unknown. */
  get currentMarginMs(): number {
    return this.baseMarginMs + this.widenedMs;
  }

  /**
   * Resolves when the caller may start one request, with the time recorded for it. The caller
   * may later `restamp` it with the moment the request really went out. A stop (`signal`) ends
   * the wait at once; the turn already queued is then granted to nobody and simply passes.
   */
  acquire(signal?: AbortSignal): Promise<number> {
    this.waitingCount++;
    const askedAt = this.clock.now();
    const turn = this.tail.then(() => this.waitForSlot(askedAt));
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
    const start = this.starts.find((s) => s.granted === slot);
    if (!start) return;
    start.inFlight = true;
    if (sentAt <= start.sent) return;
    this.sendDelays.push(sentAt - slot);
    if (this.sendDelays.length > this.limit) this.sendDelays.shift();
    start.sent = sentAt;
    this.starts.sort((a, b) => a.sent - b.sent);
  }

  /**
   * The request of `slot` was answered: its arrival delay is now bounded (see `marginOf`). Once
   * its endpoint is calibrated, by the round trip over the quickest one (see `ArrivalLag`);
   * before that, by the whole round trip (it cannot have arrived after its answer), and never
   * below the default: a server busy as a sync starts stamps what it held back late and bunched,
   * while no endpoint has been answered often enough to be calibrated.
   */
  answered(slot: number, endpoint: string, roundTripMs: number): void {
    this.lag.observe(endpoint, roundTripMs);
    const start = this.starts.find((s) => s.granted === slot);
    if (!start) return;
    start.inFlight = false;
    if (Number.isFinite(roundTripMs) && roundTripMs >= 0) start.answer = { endpoint, roundTripMs };
  }

  /**
   * The attempt of `slot` is over. Unanswered (a timeout, a reset, a stop), it may have been
   * counted at any moment until now, so it keeps its place until a window after now.
   */
  ended(slot: number): void {
    const start = this.starts.find((s) => s.granted === slot);
    if (!start?.inFlight) return;
    start.inFlight = false;
    start.marginMs = Math.max(start.marginMs, SAFETY_MS + this.clock.now() - start.sent);
  }

  private async waitForSlot(askedAt: number): Promise<number> {
    const spacing = this.windowMs / this.limit;
    // Turns follow an even schedule kept in absolute time, not from when the last one was really
    // granted: a timer that fires late (a busy event loop, a process waiting for a core) leaves
    // the schedule behind, and the turns it delayed are granted as soon as it fires, until the
    // schedule is caught up again. The window below, kept on real send times, still holds every
    // one of them. A caller that asks after the limiter sat idle is not owed the turns nobody
    // asked for: the idle time moves the schedule on by as much.
    const behind = Number.isFinite(this.lastDue) ? this.lastGrantedAt - this.lastDue : 0;
    const scheduled = Math.max(this.lastDue + spacing, askedAt - behind);
    for (;;) {
      const now = this.clock.now();
      this.forget(now);
      const free = this.windowFreeAt(now);
      const readyAt = Math.max(this.pausedUntil, free.at, scheduled);
      if (readyAt <= now) {
        // At most MAX_CATCH_UP_MS behind: a longer stall is not made up in one burst.
        this.lastDue = Math.max(readyAt, now - Math.min(MAX_CATCH_UP_MS, this.windowMs / 4));
        this.lastGrantedAt = now;
        this.starts.push({ granted: now, sent: now, marginMs: this.baseMarginMs, inFlight: false });
        return now;
      }
      // Held back by requests in flight, look again soon: their answers may free the window
      // long before the time worked out for them now.
      const wait = free.onInFlight ? Math.min(readyAt - now, spacing) : readyAt - now;
      this.waitedMs += wait;
      await this.clock.sleep(wait);
    }
  }

  /**
   * The earliest grant at which fewer than `limit` recent requests may still be counted by the
   * server when the new one arrives, and whether a request in flight decides it. Grants run
   * ahead of the send by the shortest recent delay between the two (`leadMs`), since the window
   * is kept on send times.
   */
  private windowFreeAt(now: number): { at: number; onInFlight: boolean } {
    if (this.starts.length < this.limit) return { at: Number.NEGATIVE_INFINITY, onInFlight: false };
    const until = this.starts
      .map((s) => ({ at: this.countedUntil(s, now), inFlight: s.inFlight }))
      .sort((a, b) => b.at - a.at);
    const deciding = until[this.limit - 1]!;
    return { at: deciding.at - this.leadMs(), onInFlight: deciding.inFlight };
  }

  /** Until when `start` may count for the server; one in flight may yet arrive any moment. */
  private countedUntil(start: Start, now: number): number {
    const known = start.sent + this.windowMs + this.marginOf(start) + this.widenedMs;
    return start.inFlight ? Math.max(known, now + this.windowMs) : known;
  }

  /**
   * How far past `sent + window` an answered request may be counted: its round trip over the
   * quickest one known now for its endpoint (which only comes down, so the margin only grows),
   * or its whole round trip while the endpoint is not calibrated.
   */
  private marginOf(start: Start): number {
    if (!start.answer) return start.marginMs;
    const bound = this.lag.bound(start.answer.endpoint, start.answer.roundTripMs);
    if (bound !== undefined) return SAFETY_MS + bound;
    return Math.max(start.marginMs, SAFETY_MS + start.answer.roundTripMs);
  }

  private leadMs(): number {
    return this.sendDelays.length === 0 ? 0 : Math.min(...this.sendDelays);
  }

  /**
   * Drops starts that can no longer be counted, even if the margin is widened to its most or an
   * endpoint's quickest round trip comes down by up to a window.
   */
  private forget(now: number): void {
    const horizon = now - this.maxMarginMs - this.windowMs;
    for (let i = this.starts.length - 1; i >= 0; i--) {
      const start = this.starts[i]!;
      if (!start.inFlight && this.countedUntil(start, now) < horizon) this.starts.splice(i, 1);
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
    answered: (slot, endpoint, roundTripMs) => inner.answered?.(slot, endpoint, roundTripMs),
    ended: (slot) => inner.ended(slot),
    widenMargin: () => inner.widenMargin(),
  };
}
