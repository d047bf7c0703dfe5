/**
 * Retry policy, pure: which failures are retried and how long to wait before the next attempt.
 * Decisions are made on error codes, never on message text.
 */

export type ApiErrorCode =
  | "HTTP_CLIENT" // 4xx other than 429: our request is wrong; retrying cannot help
  | "HTTP_AUTH" // 401/403: key, client id or subscription
  | "HTTP_RATE_LIMITED" // 429
  | "HTTP_SERVER" // 5xx
  | "NETWORK" // reset, refused, DNS, truncated body
  | "TLS" // https to a server that speaks plain HTTP, or a certificate refused: a retry meets the same
  | "TIMEOUT"
  | "BAD_RESPONSE" // 2xx whose body is garbled (not JSON, cut short): may come out right on a retry
  | "UNEXPECTED_SHAPE" // 2xx, well-formed JSON, but missing what regwatch needs: a retry would get the same
  | "REFUSED_ORIGIN" // a file path outside the allowed origins: never requested
  | "TOO_LARGE" // body above its byte cap (declared or read): the same answer would come again
  | "TOO_DEEP" // JSON nested beyond the bound: refused before parsing
  | "BAD_ENCODING" // body is not valid UTF-8
  | "RETRY_AFTER_TOO_LONG" // the server asked for a pause longer than REGWATCH_MAX_RETRY_AFTER_S
  | "PAGES_DISAGREE" // pages of one changes answer report different intervals
  | "TOO_MANY_PAGES" // a paged answer went on past the page bound
  | "ABORTED"; // the stop signal cut the request (SIGTERM, shutdown)

const RETRYABLE: ReadonlySet<ApiErrorCode> = new Set([
  "HTTP_RATE_LIMITED",
  "HTTP_SERVER",
  "NETWORK",
  "TIMEOUT",
  "BAD_RESPONSE",
]);

export function isRetryable(code: ApiErrorCode): boolean {
  return RETRYABLE.has(code);
}

export interface BackoffOptions {
  baseMs: number;
  capMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 500, capMs: 30_000 };

/**
 * Wait before attempt `attempt + 1` (attempt counts from 1): exponential with full jitter, but
 * never shorter than what the server asked for with Retry-After.
 */
export function backoffDelay(
  attempt: number,
  retryAfterMs: number | undefined,
  random: () => number,
  options = DEFAULT_BACKOFF,
): number {
  const ceiling = Math.min(options.capMs, options.baseMs * 2 ** Math.max(0, attempt - 1));
  const jittered = Math.round(ceiling / 2 + random() * (ceiling / 2));
  return Math.max(jittered, retryAfterMs ?? 0);
}

/**
 * Milliseconds a Retry-After header asks for: delta-seconds ("3", "1.5") or an HTTP date.
 * Unknown forms give undefined (the backoff then decides); negative waits become 0.
 */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined) return undefined;
  const text = raw.trim();
  if (text === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}
