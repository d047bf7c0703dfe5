/**
 * The doctor's requests to the registry and to the file origins: reads only, paced by the same
 * rate limiters as the runs, bounded in time and attempts so that a dead address is reported in
 * seconds. Every request goes through HttpClient, whose one rule attaches the key only to the
 * watch interface's origin; a recording dispatcher notes which origins a key was actually sent
 * to, so the report states what happened rather than what should happen.
 */
import "../api/wasm-baseline.ts";
import { Agent, type Dispatcher } from "undici";
import type { Clock } from "../api/clock.ts";
import { systemClock } from "../api/clock.ts";
import { ApiError } from "../api/errors.ts";
import { HttpClient, type HttpClientOptions, type HttpResponse } from "../api/http.ts";
import { limiterForKey, RateLimiter } from "../api/rate-limiter.ts";
import type { Config } from "../config.ts";
import { interfaceBase } from "../config-url.ts";

/** Every status is an answer to judge here, not an error to retry. */
const ANY_STATUS: readonly number[] = Array.from({ length: 500 }, (_, i) => i + 100);
/** The doctor waits at most this long for one answer (the runs wait REGWATCH_REQUEST_TIMEOUT_MS). */
const PROBE_TIMEOUT_MS = 10_000;
/** A Retry-After longer than this is reported instead of waited out. */
const PROBE_MAX_RETRY_AFTER_MS = 10_000;
/** The root page of a file origin is read only to see that it answers: its body is not needed. */
const FILE_PROBE_CAP = { bytes: 1024 * 1024, name: "the doctor's read of a file origin" };

export interface ProbeAnswer {
  status: number;
  headers: HttpResponse["headers"];
  body: Buffer;
  /** Our clock when the request was handed to the client and when its answer was complete. */
  sentAt: number;
  answeredAt: number;
}

export type Probe = { kind: "answered"; answer: ProbeAnswer } | { kind: "failed"; error: ApiError };

export interface DoctorHttp {
  watchOrigin: string | undefined;
  /** The client the runs' watch interface rule is built from (key for the watch origin only). */
  watch: HttpClient | undefined;
  /** Reads the watch interface's list of lists. */
  readLists(): Promise<Probe>;
  /** The root of a file origin, through the same key rule as change files. */
  touchFileOrigin(origin: string): Promise<Probe>;
  /** Whether a request that reached `origin` carried the key (X-Api-Key) or the client id. */
  credentialsSentTo(origin: string): boolean;
  close(): Promise<void>;
}

/** What the doctor's clients are built from. */
export type HttpSettings = Pick<
  Config,
  | "watchUrl"
  | "apiKey"
  | "clientId"
  | "rateLimit"
  | "fileRateLimit"
  | "requestTimeoutMs"
  | "retryBaseMs"
  | "maxResponseBytes"
>;

export function doctorHttp(config: HttpSettings, clock: Clock = systemClock): DoctorHttp {
  const timeoutMs = Math.min(config.requestTimeoutMs, PROBE_TIMEOUT_MS);
  const agent = new Agent({ connections: 4, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  const keyed = new Set<string>();
  const dispatcher = agent.compose((dispatch) => (options, handler) => {
    if (carriesCredentials(options.headers)) keyed.add(String(options.origin));
    return dispatch(options, handler);
  });
  const watchOrigin = config.watchUrl ? new URL(config.watchUrl).origin : undefined;
  const keyLimiter = config.apiKey ? limiterForKey(config.apiKey, config.rateLimit, clock) : undefined;
  const fileLimiters = new Map<string, RateLimiter>();
  const limiterFor = (origin: string) => {
    if (origin === watchOrigin && keyLimiter) return keyLimiter;
    let limiter = fileLimiters.get(origin);
    if (!limiter) {
      limiter = new RateLimiter(config.fileRateLimit, clock);
      fileLimiters.set(origin, limiter);
    }
    return limiter;
  };
  const common: Omit<HttpClientOptions, "api"> = {
    limiterFor,
    timeoutMs,
    totalTimeoutMs: timeoutMs * 2,
    // One retry: a passing glitch is not reported as a failure, a dead address costs seconds.
    maxAttempts: 2,
    backoff: { baseMs: Math.min(config.retryBaseMs, 1000), capMs: 2000 },
    maxRetryAfterMs: PROBE_MAX_RETRY_AFTER_MS,
    clock,
    dispatcher,
    cap: { bytes: config.maxResponseBytes, name: "REGWATCH_MAX_RESPONSE_BYTES" },
  };
  // The same rule as the runs' clients (src/api/registry.ts): the key and the client id go to
  // the watch origin, and to no other, whichever client sends the request.
  const credentials =
    watchOrigin && config.apiKey
      ? { origin: watchOrigin, headers: keyHeaders(config.apiKey, config.clientId) }
      : undefined;
  const watch = credentials ? new HttpClient({ ...common, api: "watch", credentials }) : undefined;
  const files = new HttpClient({ ...common, api: "files", ...(credentials ? { credentials } : {}) });

  const probe = async (client: HttpClient, url: URL, endpoint: string, cap?: typeof FILE_PROBE_CAP) => {
    const sentAt = clock.now();
    try {
      const response = await client.request({
        method: "GET",
        url,
        endpoint,
        expect: ANY_STATUS,
        ...(cap ? { cap } : {}),
      });
      const answer = { ...response, sentAt, answeredAt: clock.now() };
      return { kind: "answered", answer } satisfies Probe;
    } catch (error) {
      if (error instanceof ApiError) return { kind: "failed", error } satisfies Probe;
      throw error;
    }
  };

  return {
    watchOrigin,
    watch,
    readLists() {
      if (!watch || !config.watchUrl) throw new Error("the watch interface is not configured");
      const url = new URL(`${interfaceBase(config.watchUrl, "v2").root}/v2/lists`);
      return probe(watch, url, "GET /v2/lists");
    },
    touchFileOrigin(origin) {
      return probe(files, new URL("/", origin), "GET / (file origin)", FILE_PROBE_CAP);
    },
    credentialsSentTo: (origin) => keyed.has(origin),
    async close() {
      await Promise.all([watch?.close(), files.close()]);
      await agent.destroy();
    },
  };
}

function keyHeaders(apiKey: string, clientId: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { "x-api-key": apiKey };
  if (clientId) headers["x-client-id"] = clientId;
  return headers;
}

/** Whether the headers of an outgoing request hold the key or the client id, in any of undici's forms. */
function carriesCredentials(headers: Dispatcher.DispatchOptions["headers"]): boolean {
  if (!headers) return false;
  const names: string[] = [];
  if (Array.isArray(headers)) {
    for (let i = 0; i < headers.length; i += 2) names.push(String(headers[i]));
  } else if (typeof (headers as Iterable<unknown>)[Symbol.iterator] === "function") {
    for (const [name] of headers as Iterable<[string, unknown]>) names.push(name);
  } else names.push(...Object.keys(headers));
  return names.some((n) => ["x-api-key", "x-client-id"].includes(n.toLowerCase()));
}
