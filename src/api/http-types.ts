/** The shapes of a request through HttpClient, its answer, and the client's options. */
import type { Dispatcher } from "undici";
import type { BodyCap } from "./body.ts";
import type { Clock } from "./clock.ts";
import type { ApiError } from "./errors.ts";
import type { KeyRefusal } from "./key-refusal.ts";
import type { OriginPauses } from "./pauses.ts";
import type { Limiter } from "./rate-limiter.ts";
import type { ApiErrorCode, BackoffOptions } from "./retry.ts";

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

/** A response whose body is read by the caller, chunk by chunk, under the client's bounds. */
export interface StreamedResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: AsyncIterable<Buffer>;
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
  /** Default byte cap of a response body (4 MiB, named REGWATCH_MAX_RESPONSE_BYTES, if unset). */
  cap?: BodyCap;
  /** The process's stop: aborts every wait and transfer in flight. */
  signal?: AbortSignal;
  /** Retry-After pauses per origin, shared by the clients of one registry. */
  pauses?: OriginPauses;
  /**
   * The key's refusal, shared by the clients of one key: a 401/403 answer aborts every request of
   * those clients in flight, and none starts after it.
   */
  refusal?: KeyRefusal;
}
