/**
 * How late can the server have stamped a request's arrival? The registry counts a request when it
 * reaches its gateway, which can trail the moment our headers left by a varying delay (the
 * network, the server's own queue). That delay is part of the request's round trip, so once the
 * answer's headers are in, the round trip minus the quickest round trip seen for the same
 * endpoint bounds it from above (the rest of the excess is processing time, which only makes the
 * bound more careful). Until an endpoint has been answered often enough for its quickest round
 * trip to mean something, no bound is given and the caller keeps its default distance.
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
    return seen.answers > this.calibration ? roundTripMs - seen.ms : undefined;
  }
}
