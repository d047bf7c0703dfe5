import { RegwatchError } from "../errors.ts";
import { redactSecrets } from "../secrets.ts";
import type { ApiErrorCode } from "./retry.ts";

/**
 * A registry request that failed; `status` is the HTTP status when there was one. The message is
 * scrubbed of every registered secret when the error is built: a server may echo the key back in
 * its error body, and the message travels to logs, run rows and file errors from here.
 */
export class ApiError extends RegwatchError {
  declare readonly code: ApiErrorCode;
  readonly status: number | undefined;
  readonly endpoint: string;
  readonly retryAfterMs: number | undefined;
  readonly attempts: number;

  constructor(
    code: ApiErrorCode,
    message: string,
    details: { endpoint: string; status?: number; retryAfterMs?: number; attempts?: number; cause?: unknown },
  ) {
    super(code, redactSecrets(message), { cause: details.cause });
    this.status = details.status;
    this.endpoint = details.endpoint;
    this.retryAfterMs = details.retryAfterMs;
    this.attempts = details.attempts ?? 1;
  }
}

/** Short description of an error body: the JSON `message` when there is one, else the text, cut. */
export function describeBody(body: Buffer | string): string {
  const text = typeof body === "string" ? body : body.toString("utf8");
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === "object" && "message" in parsed && typeof parsed.message === "string") {
      return parsed.message.slice(0, 300);
    }
  } catch {
    // not JSON: fall through to the raw text
  }
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}
