/** How a failed exchange becomes an ApiError: by status, by transport fault, by a too-long Retry-After. */
import "./wasm-baseline.ts";
import { errors as undiciErrors } from "undici";
import { UNTRUSTED_CERTIFICATE } from "../tls-trust.ts";
import { ApiError, describeBody } from "./errors.ts";
import type { HttpResponse, RequestSpec } from "./http-types.ts";
import { type ApiErrorCode, parseRetryAfter } from "./retry.ts";

export function retryAfterTooLong(error: ApiError, maxMs: number): ApiError {
  const askedS = Math.round((error.retryAfterMs ?? 0) / 1000);
  return new ApiError(
    "RETRY_AFTER_TOO_LONG",
    `${error.endpoint}: the server asked to wait ${askedS} s before retrying, longer than ` +
      `REGWATCH_MAX_RETRY_AFTER_S (${Math.round(maxMs / 1000)} s); the request fails instead of pausing ` +
      `(${error.message})`,
    {
      endpoint: error.endpoint,
      status: error.status,
      retryAfterMs: error.retryAfterMs,
      attempts: error.attempts,
      cause: error,
    },
  );
}

export function statusError(spec: RequestSpec, response: HttpResponse, nowMs: number): ApiError {
  const { status } = response;
  const code: ApiErrorCode =
    status === 429
      ? "HTTP_RATE_LIMITED"
      : status === 401 || status === 403
        ? "HTTP_AUTH"
        : status >= 500
          ? "HTTP_SERVER"
          : status >= 200 && status < 300
            ? "BAD_RESPONSE"
            : "HTTP_CLIENT";
  // ApiError scrubs secrets from the message: a server may echo the key in its error page.
  const detail = describeBody(response.body);
  return new ApiError(code, `${spec.endpoint} answered ${status}${detail ? `: ${detail}` : ""}`, {
    endpoint: spec.endpoint,
    status,
    retryAfterMs: parseRetryAfter(response.headers["retry-after"], nowMs),
    attempts: response.attempts,
  });
}

export function toApiError(thrown: unknown, endpoint: string, attempt: number, stop?: AbortSignal): ApiError {
  if (thrown instanceof ApiError) return thrown;
  if (stop?.aborted) {
    return new ApiError("ABORTED", `${endpoint}: stopped before an answer came`, {
      endpoint,
      attempts: attempt,
      cause: thrown,
    });
  }
  const tls = tlsProblem(thrown);
  if (tls) return new ApiError("TLS", `${endpoint}: ${tls}`, { endpoint, attempts: attempt, cause: thrown });
  const timeout =
    thrown instanceof undiciErrors.HeadersTimeoutError ||
    thrown instanceof undiciErrors.BodyTimeoutError ||
    thrown instanceof undiciErrors.ConnectTimeoutError;
  const message = thrown instanceof Error ? thrown.message : String(thrown);
  return new ApiError(
    timeout ? "TIMEOUT" : "NETWORK",
    `${endpoint}: ${timeout ? "timed out" : "connection failed"} (${message})`,
    {
      endpoint,
      attempts: attempt,
      cause: thrown,
    },
  );
}

/** OpenSSL's codes when the other side answered a TLS handshake in plain HTTP. */
const NOT_TLS = new Set([
  "ERR_SSL_WRONG_VERSION_NUMBER",
  "ERR_SSL_PACKET_LENGTH_TOO_LONG",
  "ERR_SSL_HTTP_REQUEST",
]);

/**
 * A handshake that cannot succeed however often it is tried, said in words (not OpenSSL's
 * string): https to a plain-HTTP server, or a certificate this machine does not trust.
 */
function tlsProblem(thrown: unknown): string | undefined {
  for (let e = thrown, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code !== "string") continue;
    if (NOT_TLS.has(code))
      return `the server does not speak TLS at this address (it answered an https request in plain HTTP, ${code}): use its http:// address if it is meant to be plain HTTP (a local emulator), else check the port`;
    if (UNTRUSTED_CERTIFICATE.has(code))
      return `the server's TLS certificate is not trusted (${code}): check the address, or give Node the certificate authority with NODE_EXTRA_CA_CERTS`;
  }
  return undefined;
}
