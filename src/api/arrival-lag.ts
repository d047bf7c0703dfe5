/**
 * How late can the server have stamped a request's arrival? The registry counts a request when it
 * reaches its gateway, which can trail the moment our headers left by a varying delay (the
 * network, the server's own queue). That delay is part of the request's round trip, so once the
 * answer's headers are in, the round trip minus the quickest round trip seen for the same
 * endpoint bounds it from above (the rest of the excess is processing time, which only makes the
 * bound more careful). Until an endpoint has been answered often enough for its quickest round
 * trip to mean something, no bound is given and the caller keeps its default distance.
 *
 * The quickest round trip only ever comes down, and when it does, every bound worked out against
 * the slower one was too small: a server busy as a run starts answers its first requests slowly,
 * and requests that then leave a quiet server arrive sooner than those answers suggested. So the
 * caller asks for a bound whenever it needs one (`bound`), against the quickest known by then.
 */
export class ArrivalLag {
  private readonly quickest = new Map<string, { ms: number; answers: number }>();

  /** `calibration`: answers of an endpoint needed before its bounds are trusted. */
  constructor(private readonly calibration = 20) {}

  /** Records one answered request; returns the bound on its arrival delay in ms, if known yet. */
  observe(endpoint: string, roundTripMs: number): number | undefined {
    if (!Number.isFinite(roundTripMs) || roundTripMs < 0) return undefined;
    const seen = this.quickest.get(endpoint) ?? { ms: roundTripMs, answers: 0 };
    seen.ms = Math.min(seen.ms, roundTripMs);
    seen.answers++;
    this.quickest.set(endpoint, seen);
    return this.bound(endpoint, roundTripMs);
  }

  /** The bound on the arrival delay of a request of `endpoint` answered in `roundTripMs`, today. */
  bound(endpoint: string, roundTripMs: number): number | undefined {
    const seen = this.quickest.get(endpoint);
    if (!seen || seen.answers <= this.calibration) return undefined;
    return roundTripMs - seen.ms;
  }
}
