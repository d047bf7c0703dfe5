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
import "./wasm-baseline.ts";
import { Agent, type Dispatcher } from "undici";
import { type BodyCap, type BodyStream, checkDeclaredLength, decodeJson, discard } from "./body.ts";
import { type Clock, systemClock } from "./clock.ts";
import { ApiError } from "./errors.ts";
import { retryAfterTooLong, statusError, toApiError } from "./http-failures.ts";
import { ConsumerFailure, cappedBody, collect, type TransferState } from "./http-transfer.ts";
import type { HttpClientOptions, HttpResponse, RequestSpec, StreamedResponse } from "./http-types.ts";
import { linkSignals } from "./linked-signal.ts";
import { OriginPauses } from "./pauses.ts";
import { type ApiErrorCode, backoffDelay, isRetryable } from "./retry.ts";
import { withSendTime } from "./send-time.ts";

export type {
  HttpClientOptions,
  HttpResponse,
  RequestResult,
  RequestSpec,
  RetryInfo,
  StreamedResponse,
} from "./http-types.ts";

/** When an attempt's request left and when its answer's headers came in, told to the limiter. */
interface SendTiming {
  sent(): void;
  answered(): void;
}

const DEFAULT_CAP: BodyCap = { bytes: 4 * 1024 * 1024, name: "REGWATCH_MAX_RESPONSE_BYTES" };
const DEFAULT_MAX_RETRY_AFTER_MS = 300_000;
/** How long close() lets requests in flight finish before they are aborted. */
const CLOSE_GRACE_MS = 2000;

/** One attempt of a request: sent under `stop`, its send and answer times told to `timing`. */
type AttemptOnce<T> = (
  attempt: number,
  stop: AbortSignal | undefined,
  timing: SendTiming,
  seen: { status?: number },
) => Promise<T>;

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

  private async withRetries<T>(spec: RequestSpec, attemptOnce: AttemptOnce<T>): Promise<T> {
    const linked = linkSignals(
      this.options.signal,
      spec.signal,
      this.closing.signal,
      this.options.refusal?.signal,
    );
    try {
      return await this.attempts(spec, attemptOnce, linked.signal);
    } finally {
      linked.release();
    }
  }

  private async attempts<T>(
    spec: RequestSpec,
    attemptOnce: AttemptOnce<T>,
    stop: AbortSignal | undefined,
  ): Promise<T> {
    const origin = spec.url.origin;
    const limiter = this.options.limiterFor(origin);
    const refusal = this.options.refusal;
    for (let attempt = 1; ; attempt++) {
      let slot: number;
      try {
        if (refusal?.error) throw refusal.cut(spec.endpoint, attempt - 1);
        await this.pauses.wait(origin, stop);
        slot = await limiter.acquire(stop);
        // The key may have been refused while this request waited: it is not sent.
        if (refusal?.error) {
          limiter.ended(slot);
          throw refusal.cut(spec.endpoint, attempt - 1);
        }
      } catch (thrown) {
        if (refusal?.error) throw refusal.cut(spec.endpoint, attempt - 1);
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
        if (refusal) {
          // The first 401/403 ends every request of the key; one cut short by it says so.
          if (error.code === "HTTP_AUTH") throw refusal.refuse(error);
          if (refusal.error) throw refusal.cut(spec.endpoint, attempt);
        }
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
        if (refusal?.error) throw refusal.cut(spec.endpoint, attempt);
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
    const linked = linkSignals(attemptAbort.signal, stop);
    const signal = linked.signal;
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
      linked.release();
      if (responseBody && !transfer.ended) discard(responseBody);
    }
  }

  private report(spec: RequestSpec, status: number | undefined, code: ApiErrorCode | undefined): void {
    this.options.onResult?.({ api: this.options.api, endpoint: spec.endpoint, status, code });
  }
}

/**
 * Parses a JSON body: strict UTF-8, bounded nesting, then JSON.parse. A body that does not parse
 * is a retryable BAD_RESPONSE; invalid UTF-8 (BAD_ENCODING) and excessive nesting (TOO_DEEP)
 * are named and not retried.
 */
export function parseJson(response: HttpResponse, endpoint: string): unknown {
  return decodeJson(response.body, { endpoint, status: response.status, attempts: response.attempts });
}
