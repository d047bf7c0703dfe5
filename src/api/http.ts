/**
 * The one place regwatch talks HTTP. Every request waits for its origin's rate limiter, is
 * retried on 429/5xx/network/timeouts/garbled bodies with backoff that honours Retry-After,
 * and is reported to `onResult` for usage accounting. The API key is added here, and only for
 * the origin it belongs to.
 */
import { Agent, type Dispatcher, errors as undiciErrors } from "undici";
import { type Clock, systemClock } from "./clock.ts";
import { ApiError, describeBody } from "./errors.ts";
import type { RateLimiter } from "./rate-limiter.ts";
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
  /** 2xx statuses this call accepts. */
  expect?: readonly number[];
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

export interface HttpClientOptions {
  /** Name of the interface in usage counts: "watch", "search", "files". */
  api: string;
  limiterFor: (origin: string) => RateLimiter;
  /** Headers sent only to `credentialOrigin`. */
  credentials?: { origin: string; headers: Record<string, string> };
  timeoutMs: number;
  maxAttempts: number;
  backoff?: BackoffOptions;
  /** Longest Retry-After we wait for before giving up on the request. */
  maxRetryAfterMs?: number;
  clock?: Clock;
  random?: () => number;
  onResult?: (result: RequestResult) => void;
  onRetry?: (info: { endpoint: string; attempt: number; delayMs: number; error: ApiError }) => void;
  dispatcher?: Dispatcher;
  maxBodyBytes?: number;
}

const DEFAULT_MAX_BODY = 64 * 1024 * 1024;

export class HttpClient {
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly dispatcher: Dispatcher;

  constructor(private readonly options: HttpClientOptions) {
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? Math.random;
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
    const limiter = this.options.limiterFor(spec.url.origin);
    for (let attempt = 1; ; attempt++) {
      const slot = await limiter.acquire();
      let error: ApiError;
      try {
        const response = await this.once(spec, attempt, () => limiter.restamp(slot, this.clock.now()));
        // Parsing happens inside the loop so that a garbled body is retried like a failed request.
        const value = parse ? parse(response) : (response as T);
        this.report(spec, response.status, undefined);
        return value;
      } catch (thrown) {
        error = toApiError(thrown, spec.endpoint, attempt);
        this.report(spec, error.status, error.code);
      }
      if (error.code === "HTTP_RATE_LIMITED") {
        limiter.widenMargin();
        if (error.retryAfterMs !== undefined) limiter.pause(this.clock.now() + error.retryAfterMs);
      }
      const tooLong = (error.retryAfterMs ?? 0) > (this.options.maxRetryAfterMs ?? 120_000);
      if (!isRetryable(error.code) || attempt >= this.options.maxAttempts || tooLong) throw error;
      const delayMs = backoffDelay(attempt, error.retryAfterMs, this.random, this.options.backoff);
      this.options.onRetry?.({ endpoint: spec.endpoint, attempt, delayMs, error });
      await this.clock.sleep(delayMs);
    }
  }

  async close(): Promise<void> {
    if (!this.options.dispatcher) await this.dispatcher.close();
  }

  private async once(spec: RequestSpec, attempt: number, onSent: () => void): Promise<HttpResponse> {
    const headers: Record<string, string> = { accept: "application/json" };
    const credentials = this.options.credentials;
    if (credentials && credentials.origin === spec.url.origin) Object.assign(headers, credentials.headers);
    let body: string | undefined;
    if (spec.body !== undefined) {
      body = JSON.stringify(spec.body);
      headers["content-type"] = "application/json";
    }
    const response = await withSendTime(onSent, () =>
      this.dispatcher.request({
        origin: spec.url.origin,
        path: `${spec.url.pathname}${spec.url.search}`,
        method: spec.method,
        headers,
        body,
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
      }),
    );
    const chunks: Buffer[] = [];
    let size = 0;
    const limit = this.options.maxBodyBytes ?? DEFAULT_MAX_BODY;
    for await (const chunk of response.body) {
      size += (chunk as Buffer).length;
      if (size > limit) {
        response.body.destroy();
        throw new ApiError("BAD_RESPONSE", `${spec.endpoint}: response larger than ${limit} bytes`, {
          endpoint: spec.endpoint,
          status: response.statusCode,
          attempts: attempt,
        });
      }
      chunks.push(chunk as Buffer);
    }
    const result: HttpResponse = {
      status: response.statusCode,
      headers: response.headers,
      body: Buffer.concat(chunks),
      attempts: attempt,
    };
    const expected = spec.expect ?? [200];
    if (!expected.includes(result.status)) throw statusError(spec, result, this.clock.now());
    return result;
  }

  private report(spec: RequestSpec, status: number | undefined, code: ApiErrorCode | undefined): void {
    this.options.onResult?.({ api: this.options.api, endpoint: spec.endpoint, status, code });
  }
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
  const detail = describeBody(response.body);
  return new ApiError(code, `${spec.endpoint} answered ${status}${detail ? `: ${detail}` : ""}`, {
    endpoint: spec.endpoint,
    status,
    retryAfterMs: parseRetryAfter(response.headers["retry-after"], nowMs),
    attempts: response.attempts,
  });
}

function toApiError(thrown: unknown, endpoint: string, attempt: number): ApiError {
  if (thrown instanceof ApiError) return thrown;
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

/** Parses a JSON body, turning a garbled one into a retryable BAD_RESPONSE. */
export function parseJson(response: HttpResponse, endpoint: string): unknown {
  try {
    return JSON.parse(response.body.toString("utf8"));
  } catch (cause) {
    throw new ApiError(
      "BAD_RESPONSE",
      `${endpoint}: response is not valid JSON (${describeBody(response.body)})`,
      {
        endpoint,
        status: response.status,
        attempts: response.attempts,
        cause,
      },
    );
  }
}
