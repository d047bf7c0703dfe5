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
  /** Longest Retry-After honoured; a longer one is cut to this (the message is not given up). */
  maxRetryAfterMs: number;
}

export interface NextState {
  status: "sent" | "pending" | "dead";
  nextAttemptAt: Date;
  /** Why the message is dead, when the attempt used up the last try. */
  exhausted: boolean;
}

/**
 * `attempts` counts the attempt just made. Backoff doubles from the base with "equal jitter"
 * (half fixed, half random), so receivers recovering from an outage are not hit by every sender at
 * once, and a Retry-After is never undercut.
 */
export function nextState(
  outcome: AttemptOutcome,
  attempts: number,
  policy: RetryPolicy,
  now: Date,
  random: () => number,
): NextState {
  if (outcome.kind === "sent") return { status: "sent", nextAttemptAt: now, exhausted: false };
  if (outcome.kind === "dead") return { status: "dead", nextAttemptAt: now, exhausted: false };
  if (attempts >= policy.maxAttempts) return { status: "dead", nextAttemptAt: now, exhausted: true };
  const exponential = policy.baseMs * 2 ** Math.min(attempts - 1, 30);
  const jittered = exponential / 2 + (random() * exponential) / 2;
  const floor = Math.min(outcome.retryAfterMs ?? 0, policy.maxRetryAfterMs);
  return {
    status: "pending",
    nextAttemptAt: new Date(now.getTime() + Math.max(jittered, floor)),
    exhausted: false,
  };
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
