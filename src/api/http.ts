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
import { setMaxListeners } from "node:events";
import { Agent, type Dispatcher, errors as undiciErrors } from "undici";
import { type BodyCap, type BodyStream, checkDeclaredLength, decodeJson, discard, tooLarge } from "./body.ts";
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
}

/** When an attempt's request left and when its answer's headers came in, told to the limiter. */
interface SendTiming {
  sent(): void;
  answered(): void;
}

const DEFAULT_CAP: BodyCap = { bytes: 4 * 1024 * 1024, name: "REGWATCH_MAX_RESPONSE_BYTES" };
const DEFAULT_MAX_RETRY_AFTER_MS = 300_000;
/** How long close() lets requests in flight finish before they are aborted. */
const CLOSE_GRACE_MS = 2000;

export class HttpClient {
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly dispatcher: Dispatcher;
  private readonly pauses: OriginPauses;
  /** Aborted by close() once its grace has passed: ends every request still in flight. */
  private readonly closing = new AbortController();

  constructor(private readonly options: HttpClientOptions) {
    // Every request in flight listens to it (a wait in the limiter, a backoff): no fixed bound.
    setMaxListeners(0, this.closing.signal);
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
    return this.withRetries(spec, (attempt, stop, timing, seen) =>
      this.once(spec, attempt, stop, timing, seen, async (response, body) => {
        const result: HttpResponse = { ...response, body: await collect(body) };
        // Parsing happens inside the loop so that a garbled body is retried like a failed request.
        return parse ? parse(result) : (result as T);
      }),
    );
  }

  /**
   * Like `request`, but hands the body to `consume` as a stream instead of collecting it, under
   * the same bounds (declared length and running byte cap, header/idle/total timeouts, stop).
   * A failure of the transfer is retried like any failed request (`consume` runs again on a
   * fresh attempt, so it must start over); a failure of `consume` itself (its own sink refusing
   * the bytes, say) is thrown as it is, without a retry.
   */
  async stream<T>(spec: RequestSpec, consume: (response: StreamedResponse) => Promise<T>): Promise<T> {
    return this.withRetries(spec, (attempt, stop, timing, seen) =>
      this.once(spec, attempt, stop, timing, seen, (response, body) => consume({ ...response, body })),
    );
  }

  private async withRetries<T>(
    spec: RequestSpec,
    attemptOnce: (
      attempt: number,
      stop: AbortSignal | undefined,
      timing: SendTiming,
      seen: { status?: number },
    ) => Promise<T>,
  ): Promise<T> {
    const origin = spec.url.origin;
    const limiter = this.options.limiterFor(origin);
    const stop = combine(this.options.signal, spec.signal, this.closing.signal);
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
      const seen: { status?: number } = {};
      try {
        let sentAt: number | undefined;
        const timing: SendTiming = {
          sent: () => {
            sentAt = this.clock.now();
            limiter.restamp(slot, sentAt);
          },
          answered: () => {
            if (sentAt !== undefined) limiter.answered?.(slot, spec.endpoint, this.clock.now() - sentAt);
          },
        };
        const value = await attemptOnce(attempt, stop, timing, seen);
        this.report(spec, seen.status, undefined);
        return value;
      } catch (thrown) {
        if (thrown instanceof ConsumerFailure) {
          this.report(spec, thrown.status, undefined);
          throw thrown.cause;
        }
        error = toApiError(thrown, spec.endpoint, attempt, stop);
        // Reported even when stopped: the request may have reached the server and been counted.
        this.report(spec, error.status, error.code);
      } finally {
        limiter.ended(slot);
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

  /**
   * Closes the connections. A graceful close waits for requests in flight; a server that never
   * answers would hold it forever, so after CLOSE_GRACE_MS those requests are aborted and the
   * connections destroyed.
   */
  async close(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const abort = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        this.closing.abort(new Error("the client was closed"));
        resolve();
      }, CLOSE_GRACE_MS);
    });
    if (this.options.dispatcher) {
      clearTimeout(timer);
      return;
    }
    const graceful = await Promise.race([this.dispatcher.close().then(() => true), abort.then(() => false)]);
    clearTimeout(timer);
    if (!graceful) await this.dispatcher.destroy();
  }

  private async once<T>(
    spec: RequestSpec,
    attempt: number,
    stop: AbortSignal | undefined,
    timing: SendTiming,
    seen: { status?: number },
    handle: (response: Omit<HttpResponse, "body">, body: AsyncIterable<Buffer>) => Promise<T>,
  ): Promise<T> {
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
    const transfer: TransferState = { ended: false };
    let responseBody: BodyStream | undefined;
    try {
      const response = await withSendTime(timing.sent, () =>
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
      timing.answered();
      responseBody = response.body;
      seen.status = response.statusCode;
      const context = { endpoint: spec.endpoint, status: response.statusCode, attempts: attempt };
      checkDeclaredLength(response.headers["content-length"], cap, context);
      const restartIdle = () => {
        clearTimeout(idle);
        idle = setTimeout(bodyIdle, timeoutMs);
      };
      restartIdle();
      // Once the last byte is in, the exchange is over: what the consumer does next is not timed here.
      const ended = () => {
        transfer.ended = true;
        clearTimeout(total);
        clearTimeout(idle);
      };
      const capped = cappedBody(response.body, cap, context, restartIdle, ended, transfer);
      const head = { status: response.statusCode, headers: response.headers, attempts: attempt };
      const expected = spec.expect ?? [200];
      if (!expected.includes(head.status)) {
        const result: HttpResponse = { ...head, body: await collect(capped) };
        throw statusError(spec, result, this.clock.now());
      }
      try {
        return await handle(head, capped);
      } catch (thrown) {
        if (transfer.failure !== undefined || expired !== undefined || stop?.aborted) throw thrown;
        // The registry's own answer judged bad (a garbled body, say) goes through the retry
        // policy by its code; anything else is the consumer's own failure.
        if (thrown instanceof ApiError) throw thrown;
        throw new ConsumerFailure(head.status, thrown);
      }
    } catch (thrown) {
      if (thrown instanceof ConsumerFailure) throw thrown;
      const cause = transfer.failure ?? thrown;
      if (expired !== undefined && !(cause instanceof ApiError)) {
        throw new ApiError("TIMEOUT", `${spec.endpoint}: timed out, ${expired}`, {
          endpoint: spec.endpoint,
          attempts: attempt,
          cause,
        });
      }
      throw cause;
    } finally {
      clearTimeout(total);
      clearTimeout(idle);
      if (responseBody && !transfer.ended) discard(responseBody);
    }
  }

  private report(spec: RequestSpec, status: number | undefined, code: ApiErrorCode | undefined): void {
    this.options.onResult?.({ api: this.options.api, endpoint: spec.endpoint, status, code });
  }
}

interface TransferState {
  ended: boolean;
  /** What broke the transfer itself (network, timeout, cap), as opposed to its consumer. */
  failure?: unknown;
}

/** A consumer of a streamed body failed on its own account: not a transfer fault, not retried. */
class ConsumerFailure extends Error {
  constructor(
    readonly status: number,
    override readonly cause: unknown,
  ) {
    super("the consumer of a response body failed");
  }
}

/**
 * The body as it arrives, stopping with TOO_LARGE as soon as it passes the cap; each chunk
 * restarts the idle timer. A fault of the transfer is recorded so that it is told apart from
 * a fault of whoever reads the chunks.
 */
async function* cappedBody(
  body: BodyStream,
  cap: BodyCap,
  context: { endpoint: string; status: number; attempts: number },
  onChunk: () => void,
  onEnd: () => void,
  state: TransferState,
): AsyncGenerator<Buffer> {
  let size = 0;
  const chunks = body[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<Uint8Array>;
    try {
      next = await chunks.next();
    } catch (error) {
      state.failure = error;
      throw error;
    }
    if (next.done) break;
    onChunk();
    const chunk = next.value;
    size += chunk.length;
    if (size > cap.bytes) {
      discard(body);
      state.failure = tooLarge(context, cap, `passed ${cap.bytes} bytes while reading and`);
      throw state.failure;
    }
    yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
  }
  onEnd();
}

async function collect(body: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
  }
  return Buffer.concat(chunks, size);
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
