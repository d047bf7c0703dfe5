/**
 * What one delivery attempt means for its message: sent, retried later, or dead. Pure: the
 * channels classify their receiver's answer, this decides the next state and when.
 */

/** A receiver's answer to one attempt, as the channel classified it. */
export type AttemptOutcome =
  | { kind: "sent"; httpStatus?: number; reply?: string }
  | { kind: "retry"; error: string; httpStatus?: number; reply?: string; retryAfterMs?: number }
  | { kind: "dead"; error: string; httpStatus?: number; reply?: string };

export interface RetryPolicy {
  baseMs: number;
  maxAttempts: number;
  /** Longest single wait, Retry-After included: a receiver cannot push a message out for days. */
  capMs?: number;
  /** Longest Retry-After honoured (the step cap applies to it too). */
  maxRetryAfterMs?: number;
  /** Age (from queueing) past which a message that still fails is dead. */
  giveUpMs?: number;
}

export interface NextState {
  status: "sent" | "pending" | "dead";
  nextAttemptAt: Date;
  /** The message ran out of tries or of time (`reason` says which). */
  exhausted: boolean;
  reason?: string;
}

/**
 * `attempts` counts the attempt just made; `queuedAt` is when the message entered the outbox.
 * Backoff doubles from the base with "equal jitter" (half fixed, half random), so receivers
 * recovering from an outage are not hit by every sender at once; each step is capped, and a
 * Retry-After is honoured up to the same cap. A message whose next try would fall past its
 * give-up age is dead now rather than kept for an attempt it may never get.
 */
export function nextState(
  outcome: AttemptOutcome,
  attempts: number,
  policy: RetryPolicy,
  now: Date,
  random: () => number,
  queuedAt: Date = now,
): NextState {
  if (outcome.kind === "sent") return { status: "sent", nextAttemptAt: now, exhausted: false };
  if (outcome.kind === "dead") return { status: "dead", nextAttemptAt: now, exhausted: false };
  if (attempts >= policy.maxAttempts)
    return {
      status: "dead",
      nextAttemptAt: now,
      exhausted: true,
      reason: `gave up after ${attempts} attempts`,
    };
  const cap = policy.capMs ?? Number.POSITIVE_INFINITY;
  const exponential = Math.min(policy.baseMs * 2 ** Math.min(attempts - 1, 30), cap);
  const jittered = exponential / 2 + (random() * exponential) / 2;
  const floor = Math.min(outcome.retryAfterMs ?? 0, cap, policy.maxRetryAfterMs ?? cap);
  const next = new Date(now.getTime() + Math.max(jittered, floor));
  if (policy.giveUpMs !== undefined && next.getTime() - queuedAt.getTime() > policy.giveUpMs) {
    return {
      status: "dead",
      nextAttemptAt: now,
      exhausted: true,
      reason: tooOldReason(attempts, policy.giveUpMs),
    };
  }
  return { status: "pending", nextAttemptAt: next, exhausted: false };
}

/**
 * Past its give-up age a message is dead without another attempt (a deliverer that was down
 * for days does not send week-old alerts as if they were news).
 */
export function isTooOld(queuedAt: Date, now: Date, giveUpMs: number): boolean {
  return now.getTime() - queuedAt.getTime() > giveUpMs;
}

export function tooOldReason(attempts: number, giveUpMs: number): string {
  const hours = Math.round((giveUpMs / 3_600_000) * 10) / 10;
  return `gave up after ${attempts} attempts: not delivered within ${hours} h of being queued`;
}

/** HTTP status → outcome family: 2xx sent; 408, 429 and 5xx retried; everything else dead. */
export function classifyHttpStatus(status: number): "sent" | "retry" | "dead" {
  if (status >= 200 && status < 300) return "sent";
  if (status === 408 || status === 429 || status >= 500) return "retry";
  return "dead";
}

/** Retry-After in seconds or as an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: Date): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now.getTime());
}

/** SMTP reply code → outcome family: 2xx sent, 4xx retried (temporary), 5xx dead (permanent). */
export function classifySmtpCode(code: number | undefined): "sent" | "retry" | "dead" {
  if (code === undefined) return "retry";
  if (code >= 200 && code < 400) return "sent";
  if (code >= 500) return "dead";
  return "retry";
}
