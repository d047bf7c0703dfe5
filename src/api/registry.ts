/**
 * Builds the registry clients from configuration. Pacing: one rate limiter per API key (the
 * registry counts per key, so the search client shares the watch client's limiter when the keys
 * are the same, see `limiterForKey`), at REGWATCH_RATE_LIMIT, change files on the watch origin
 * included (windows and files then take turns on it fairly, see FairShare); every other file
 * origin has its own limiter at REGWATCH_FILE_RATE_LIMIT. A
 * Retry-After pauses only the origin that sent it. Credentials go only to the watch origin.
 */
import type { Config } from "../config.ts";
import { interfaceBase } from "../config-url.ts";
import type { Logger } from "../logger.ts";
import { type Clock, systemClock } from "./clock.ts";
import { FairShare } from "./fair-share.ts";
import { type DownloadedFile, downloadFile, type StreamedFile, streamFile } from "./file-download.ts";
import { HttpClient, type HttpClientOptions, type RequestResult, type RetryInfo } from "./http.ts";
import { KeyRefusal } from "./key-refusal.ts";
import { OriginPauses } from "./pauses.ts";
import { type Limiter, limiterForKey, RateLimiter } from "./rate-limiter.ts";
import { describeRetry } from "./retry-log.ts";
import { WatchClient } from "./watch-client.ts";

export interface RegistryClients {
  watch: WatchClient;
  /**
   * The watch interface's paced client (key, rate lane, byte cap), for other reads of the watch
   * origin such as the registry's description (readDescription).
   */
  watchHttp: HttpClient;
  /** Client for change files: carries the key only when a file lives on the watch origin. */
  files: HttpClient;
  /**
   * Fetches one change file (relative paths resolved against REGWATCH_WATCH_URL, at most 3
   * redirects within REGWATCH_FILE_ORIGINS, REGWATCH_MAX_FILE_BYTES cap). Throws
   * RefusedFileError (code REFUSED_ORIGIN) when the path or a redirect leaves the allowed origins.
   */
  downloadFile(path: string, signal?: AbortSignal): Promise<DownloadedFile>;
  /** The same fetch, handing the body to `consume` as it arrives (what the file phase uses). */
  streamFile<T>(path: string, consume: (file: StreamedFile) => Promise<T>, signal?: AbortSignal): Promise<T>;
  watchOrigin: string;
  limiters: Map<string, RateLimiter>;
  /** The turns of windows and files on the watch origin. */
  fairShare: FairShare;
  /** Set at the first 401/403 of the watch interface or a file origin: the run ends there. */
  refusal: KeyRefusal;
  close(): Promise<void>;
}

export interface RegistryOptions {
  log: Logger;
  onResult?: (result: RequestResult) => void;
  /** Told of every retry after it is logged (a progress view waiting for the first answer). */
  onRetry?: (info: RetryInfo) => void;
  clock?: Clock;
  /** The process's stop (SIGTERM): cuts every request, pause and backoff in flight. */
  signal?: AbortSignal;
}

export function createRegistry(
  config: Config & { watchUrl: string; apiKey: string },
  options: RegistryOptions,
): RegistryClients {
  const clock = options.clock ?? systemClock;
  const watchOrigin = new URL(config.watchUrl).origin;
  // Paths (/v2/lists, relative file paths) go after the address without its version segment.
  const watchRoot = interfaceBase(config.watchUrl, "v2").root;
  const keyLimiter = limiterForKey(config.apiKey, config.rateLimit, clock);
  const limiters = new Map<string, RateLimiter>([[watchOrigin, keyLimiter]]);
  // Window and file requests on the watch origin share its budget turn about, so a backlog of
  // files never holds back a window, nor a backfill the files.
  const fair = new FairShare(keyLimiter);
  const watchLane = fair.lane("windows");
  const fileLane = fair.lane("files");
  const limiterFor = (origin: string): Limiter => {
    let limiter = limiters.get(origin);
    if (!limiter) {
      limiter = new RateLimiter(config.fileRateLimit, clock);
      limiters.set(origin, limiter);
    }
    return limiter;
  };
  const headers: Record<string, string> = { "x-api-key": config.apiKey };
  if (config.clientId) headers["x-client-id"] = config.clientId;
  const refusal = new KeyRefusal(config.keyVariables?.apiKey ?? "REGWATCH_API_KEY");
  const common = {
    refusal,
    ...httpOptionsOf(config, clock, options.log, options.onRetry),
    credentials: { origin: watchOrigin, headers },
    onResult: options.onResult,
    signal: options.signal,
    pauses: new OriginPauses(clock),
  };
  const http = new HttpClient({
    api: "watch",
    ...common,
    limiterFor: (origin) => (origin === watchOrigin ? watchLane : limiterFor(origin)),
    cap: { bytes: config.maxResponseBytes, name: "REGWATCH_MAX_RESPONSE_BYTES" },
  });
  const files = new HttpClient({
    api: "files",
    ...common,
    limiterFor: (origin) => (origin === watchOrigin ? fileLane : limiterFor(origin)),
    cap: { bytes: config.maxFileBytes, name: "REGWATCH_MAX_FILE_BYTES" },
  });
  return {
    watch: new WatchClient(http, {
      baseUrl: watchRoot,
      fromParam: config.changesFromParam,
      toParam: config.changesToParam,
      pageParam: config.changesPageParam,
      maxResponseBytes: config.maxResponseBytes,
    }),
    watchHttp: http,
    files,
    downloadFile: (path, signal) =>
      downloadFile(files, path, {
        baseUrl: watchRoot,
        allowedOrigins: config.fileOrigins,
        maxBytes: config.maxFileBytes,
        signal,
      }),
    streamFile: (path, consume, signal) =>
      streamFile(
        files,
        path,
        {
          baseUrl: watchRoot,
          allowedOrigins: config.fileOrigins,
          maxBytes: config.maxFileBytes,
          signal,
        },
        consume,
      ),
    watchOrigin,
    limiters,
    fairShare: fair,
    refusal,
    async close() {
      await Promise.all([http.close(), files.close()]);
    },
  };
}

/**
 * The transport settings every registry client shares (timeouts, attempts, backoff, the
 * Retry-After bound, retry logging); the search client can spread them into its own options.
 */
export function httpOptionsOf(
  config: Config,
  clock: Clock,
  log: Logger,
  alsoOnRetry?: (info: RetryInfo) => void,
): Pick<
  HttpClientOptions,
  "timeoutMs" | "maxAttempts" | "backoff" | "maxRetryAfterMs" | "clock" | "onRetry"
> {
  return {
    timeoutMs: config.requestTimeoutMs,
    maxAttempts: config.maxAttempts,
    backoff: { baseMs: config.retryBaseMs, capMs: 30_000 },
    maxRetryAfterMs: config.maxRetryAfterS * 1000,
    clock,
    // A warning, so it shows on a terminal too: silence while requests fail is worse than noise.
    onRetry: (info) => {
      const line = describeRetry(info, clock.now());
      log.warn(line.fields, `retrying ${line.message}`);
      alsoOnRetry?.(info);
    },
  };
}
