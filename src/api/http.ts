/**
 * The one place regwatch talks HTTP. Every request waits for its origin's pause (a Retry-After)
 * and its key's rate limiter, is retried on 429/5xx/network/timeouts/garbled bodies with backoff
 * that honours Retry-After (unless the request is not idempotent), and is reported to `onResult`
 * for usage accounting. The API key is added here, and only for the origin it belongs to.
 *
 * Every exchange is bounded: time to response headers and each idle gap in the body by
 * `timeoutMs`, the whole attempt by `totalTimeoutMs`, the body by a byte cap; and every wait
 * (limiter, pause, backoff, transfer) ends at once when the stop signal aborts.
 */
import { Agent, type Dispatcher, errors as undiciErrors } from "undici";
import { type BodyCap, checkDeclaredLength, decodeJson, discard, readCapped } from "./body.ts";
import { type Clock, systemClock } from "./clock.ts";
import { ApiError, describeBody } from "./errors.ts";
import { OriginPauses } from "./pauses.ts";
import type { Limiter } from "./rate-limiter.ts";
import {
  type ApiErrorCode,
  type BackoffOptions,
  backoffDelay,
  isRetryable,
  parseRetryAfter,
} from "./retry.ts";
import { withSendTime } from "./send-time.ts";

export interface RequestSpec {
  method: "GET" | "POST" | "DELETE";
  url: URL;
  /** Label for usage counts and messages, e.g. "GET /v2/lists/:key/changes". */
  endpoint: string;
  body?: unknown;
  /** Statuses this call accepts (2xx by default 200; a redirect-following caller adds 3xx). */
  expect?: readonly number[];
  /**
   * False for a request that must not be repeated blindly (POST /v2/lists): only a 429, which
   * says the server did not act, is retried; any other failure is thrown at once for the caller
   * to resolve.
   */
  idempotent?: boolean;
  /** Byte cap of this response, instead of the client's. */
  cap?: BodyCap;
  /** Stops this request (besides the client's own stop signal). */
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  attempts: number;
}

export interface RequestResult {
  api: string;
  endpoint: string;
  status: number | undefined;
  code: ApiErrorCode | undefined;
}

export interface RetryInfo {
  endpoint: string;
  origin: string;
  /** The attempt that failed (from 1); the next one is attempt + 1 of maxAttempts. */
  attempt: number;
  maxAttempts: number;
  delayMs: number;
  error: ApiError;
}

export interface HttpClientOptions {
  /** Name of the interface in usage counts: "watch", "search", "files". */
  api: string;
  limiterFor: (origin: string) => Limiter;
  /** Headers sent only to `credentials.origin`. */
  credentials?: { origin: string; headers: Record<string, string> };
  /** Bound on the wait for response headers and on each idle gap in the body. */
  timeoutMs: number;
  /** Bound on one whole attempt, body included; default 10 × timeoutMs. */
  totalTimeoutMs?: number;
  maxAttempts: number;
  backoff?: BackoffOptions;
  /** Longest Retry-After honoured; a longer one fails the request at once. Default 300 s. */
  maxRetryAfterMs?: number;
  clock?: Clock;
  random?: () => number;
  onResult?: (result: RequestResult) => void;
  /** Called before each backoff; `origin` is scheme://host[:port] only, never a path or query. */
  onRetry?: (info: RetryInfo) => void;
  dispatcher?: Dispatcher;
  /** Default byte cap of a response body (64 MiB, named REGWATCH_MAX_RESPONSE_BYTES, if unset). */
  cap?: BodyCap;
  /** The process's stop: aborts every wait and transfer in flight. */
  signal?: AbortSignal;
  /** Retry-After pauses per origin, shared by the clients of one registry. */
  pauses?: OriginPauses;
}

const DEFAULT_CAP: BodyCap = { bytes: 64 * 1024 * 1024, name: "REGWATCH_MAX_RESPONSE_BYTES" };
const DEFAULT_MAX_RETRY_AFTER_MS = 300_000;

export class HttpClient {
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly dispatcher: Dispatcher;
  private readonly pauses: OriginPauses;

  constructor(private readonly options: HttpClientOptions) {
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? Math.random;
    this.pauses = options.pauses ?? new OriginPauses(this.clock);
    this.dispatcher =
      options.dispatcher ??
      new Agent({
        connections: 64,
        keepAliveTimeout: 10_000,
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
      });
  }

  /** Sends the request, retrying what can be retried; throws ApiError when it finally fails. */
  async request<T = HttpResponse>(spec: RequestSpec, parse?: (response: HttpResponse) => T): Promise<T> {
    const origin = spec.url.origin;
    const limiter = this.options.limiterFor(origin);
    const stop = combine(this.options.signal, spec.signal);
    for (let attempt = 1; ; attempt++) {
      let slot: number;
      try {
        await this.pauses.wait(origin, stop);
        slot = await limiter.acquire(stop);
      } catch (thrown) {
        // A limiter may refuse on its own (a spent quota): that error is the caller's, as it is.
        if (stop?.aborted) throw toApiError(thrown, spec.endpoint, attempt, stop);
        throw thrown;
      }
      let error: ApiError;
      try {
        const response = await this.once(spec, attempt, stop, () => limiter.restamp(slot, this.clock.now()));
        // Parsing happens inside the loop so that a garbled body is retried like a failed request.
        const value = parse ? parse(response) : (response as T);
        this.report(spec, response.status, undefined);
        return value;
      } catch (thrown) {
        error = toApiError(thrown, spec.endpoint, attempt, stop);
        // Reported even when stopped: the request may have reached the server and been counted.
        this.report(spec, error.status, error.code);
      }
      const maxRetryAfterMs = this.options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
      if ((error.retryAfterMs ?? 0) > maxRetryAfterMs) throw retryAfterTooLong(error, maxRetryAfterMs);
      if (error.code === "HTTP_RATE_LIMITED") {
        limiter.widenMargin();
        if (error.retryAfterMs !== undefined)
          this.pauses.pause(origin, this.clock.now() + error.retryAfterMs);
      }
      const retryable =
        isRetryable(error.code) && (spec.idempotent !== false || error.code === "HTTP_RATE_LIMITED");
      if (!retryable || attempt >= this.options.maxAttempts) throw error;
      const delayMs = backoffDelay(attempt, error.retryAfterMs, this.random, this.options.backoff);
      this.options.onRetry?.({
        endpoint: spec.endpoint,
        origin,
        attempt,
        maxAttempts: this.options.maxAttempts,
        delayMs,
        error,
      });
      try {
        await this.clock.sleep(delayMs, stop);
      } catch (thrown) {
        throw toApiError(thrown, spec.endpoint, attempt, stop);
      }
    }
  }

  async close(): Promise<void> {
    if (!this.options.dispatcher) await this.dispatcher.close();
  }

  private async once(
    spec: RequestSpec,
    attempt: number,
    stop: AbortSignal | undefined,
    onSent: () => void,
  ): Promise<HttpResponse> {
    const headers: Record<string, string> = { accept: "application/json" };
    const credentials = this.options.credentials;
    if (credentials && credentials.origin === spec.url.origin) Object.assign(headers, credentials.headers);
    let body: string | undefined;
    if (spec.body !== undefined) {
      body = JSON.stringify(spec.body);
      headers["content-type"] = "application/json";
    }
    const cap = spec.cap ?? this.options.cap ?? DEFAULT_CAP;
    const timeoutMs = this.options.timeoutMs;
    const totalMs = this.options.totalTimeoutMs ?? timeoutMs * 10;
    // Our own timers, on the real clock (transport time is real whatever clock paces us): undici's
    // bodyTimeout alone lets a body that trickles a byte per gap run forever.
    const attemptAbort = new AbortController();
    let expired: string | undefined;
    const expire = (why: string) => () => {
      expired = why;
      attemptAbort.abort();
    };
    const total = setTimeout(expire(`no complete answer within ${totalMs} ms`), totalMs);
    let idle = setTimeout(expire(`no response headers within ${timeoutMs} ms`), timeoutMs);
    const bodyIdle = expire(`response body stalled for more than ${timeoutMs} ms`);
    const signal = combine(attemptAbort.signal, stop);
    try {
      const response = await withSendTime(onSent, () =>
        this.dispatcher.request({
          origin: spec.url.origin,
          path: `${spec.url.pathname}${spec.url.search}`,
          method: spec.method,
          headers,
          body,
          signal,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        }),
      );
      const context = { endpoint: spec.endpoint, status: response.statusCode, attempts: attempt };
      try {
        checkDeclaredLength(response.headers["content-length"], cap, context);
      } catch (error) {
        discard(response.body);
        throw error;
      }
      const restartIdle = () => {
        clearTimeout(idle);
        idle = setTimeout(bodyIdle, timeoutMs);
      };
      restartIdle();
      const received = await readCapped(response.body, cap, context, restartIdle);
      const result: HttpResponse = {
        status: response.statusCode,
        headers: response.headers,
        body: received,
        attempts: attempt,
      };
      const expected = spec.expect ?? [200];
      if (!expected.includes(result.status)) throw statusError(spec, result, this.clock.now());
      return result;
    } catch (thrown) {
      if (expired !== undefined && !(thrown instanceof ApiError)) {
        throw new ApiError("TIMEOUT", `${spec.endpoint}: timed out, ${expired}`, {
          endpoint: spec.endpoint,
          attempts: attempt,
          cause: thrown,
        });
      }
      throw thrown;
    } finally {
      clearTimeout(total);
      clearTimeout(idle);
    }
  }

  private report(spec: RequestSpec, status: number | undefined, code: ApiErrorCode | undefined): void {
    this.options.onResult?.({ api: this.options.api, endpoint: spec.endpoint, status, code });
  }
}

function combine(...signals: (AbortSignal | undefined)[]): AbortSignal | undefined {
  const present = signals.filter((s): s is AbortSignal => s !== undefined);
  if (present.length <= 1) return present[0];
  return AbortSignal.any(present);
}

function retryAfterTooLong(error: ApiError, maxMs: number): ApiError {
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

function statusError(spec: RequestSpec, response: HttpResponse, nowMs: number): ApiError {
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

function toApiError(thrown: unknown, endpoint: string, attempt: number, stop?: AbortSignal): ApiError {
  if (thrown instanceof ApiError) return thrown;
  if (stop?.aborted) {
    return new ApiError("ABORTED", `${endpoint}: stopped before an answer came`, {
      endpoint,
      attempts: attempt,
      cause: thrown,
    });
  }
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

/**
 * Parses a JSON body: strict UTF-8, bounded nesting, then JSON.parse. A body that does not parse
 * is a retryable BAD_RESPONSE; invalid UTF-8 (BAD_ENCODING) and excessive nesting (TOO_DEEP)
 * are named and not retried.
 */
export function parseJson(response: HttpResponse, endpoint: string): unknown {
  return decodeJson(response.body, { endpoint, status: response.status, attempts: response.attempts });
}
