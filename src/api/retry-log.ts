/**
 * The line an operator sees when a request is retried: which origin (never a path or query, so no
 * key or list key can show), what went wrong (the status, or the kind of failure and its cause),
 * and when the next attempt leaves. Pure, so the wording is tested without a server.
 */
import type { RetryInfo } from "./http.ts";

export interface RetryLine {
  fields: Record<string, string | number | undefined>;
  message: string;
}

export function describeRetry(info: RetryInfo, nowMs: number): RetryLine {
  const { error } = info;
  const what = error.status !== undefined ? `status ${error.status}` : `${error.code}${causeOf(error.cause)}`;
  const next = new Date(nowMs + info.delayMs);
  const seconds = (info.delayMs / 1000).toFixed(1);
  return {
    fields: {
      origin: info.origin,
      endpoint: info.endpoint,
      status: error.status,
      code: error.code,
      attempt: info.attempt,
      maxAttempts: info.maxAttempts,
      delayMs: info.delayMs,
      nextAttemptAt: next.toISOString(),
    },
    message:
      `${info.endpoint} on ${info.origin}: ${what}; attempt ${info.attempt + 1} of ${info.maxAttempts} ` +
      `in ${seconds} s (at ${next.toISOString().slice(11, 19)} UTC)`,
  };
}

/** " (connect ECONNREFUSED 127.0.0.1:1)": the transport's own words, which name no path. */
function causeOf(cause: unknown): string {
  if (!(cause instanceof Error)) return "";
  const inner = cause.cause instanceof Error ? cause.cause.message : "";
  const text = cause.message || inner;
  return text ? ` (${text})` : "";
}
