/**
 * Builds the registry clients from configuration: one rate limiter per origin (the watch
 * interface's origin, change files on it included, at REGWATCH_RATE_LIMIT; every other file
 * origin at REGWATCH_FILE_RATE_LIMIT), credentials only for the origin they belong to.
 */
import type { Config } from "../config.ts";
import type { Logger } from "../logger.ts";
import { type Clock, systemClock } from "./clock.ts";
import { HttpClient, type RequestResult } from "./http.ts";
import { RateLimiter } from "./rate-limiter.ts";
import { WatchClient } from "./watch-client.ts";

export interface Registry {
  watch: WatchClient;
  /** Client for change files: carries the key only when a file lives on the watch origin. */
  files: HttpClient;
  watchOrigin: string;
  limiters: Map<string, RateLimiter>;
  close(): Promise<void>;
}

export interface RegistryOptions {
  log: Logger;
  onResult?: (result: RequestResult) => void;
  clock?: Clock;
}

export function createRegistry(
  config: Config & { watchUrl: string; apiKey: string },
  options: RegistryOptions,
): Registry {
  const clock = options.clock ?? systemClock;
  const watchOrigin = new URL(config.watchUrl).origin;
  const limiters = new Map<string, RateLimiter>();
  const limiterFor = (origin: string) => {
    let limiter = limiters.get(origin);
    if (!limiter) {
      limiter = new RateLimiter(origin === watchOrigin ? config.rateLimit : config.fileRateLimit, clock);
      limiters.set(origin, limiter);
    }
    return limiter;
  };
  const headers: Record<string, string> = { "x-api-key": config.apiKey };
  if (config.clientId) headers["x-client-id"] = config.clientId;
  const common = {
    limiterFor,
    credentials: { origin: watchOrigin, headers },
    timeoutMs: config.requestTimeoutMs,
    maxAttempts: config.maxAttempts,
    backoff: { baseMs: config.retryBaseMs, capMs: 30_000 },
    clock,
    onResult: options.onResult,
    onRetry: ({
      endpoint,
      attempt,
      delayMs,
      error,
    }: {
      endpoint: string;
      attempt: number;
      delayMs: number;
      error: Error & { code?: string };
    }) =>
      options.log.debug(
        { endpoint, attempt, delayMs, code: error.code, err: error.message },
        "retrying request",
      ),
  };
  const http = new HttpClient({ api: "watch", ...common });
  const files = new HttpClient({ api: "files", ...common });
  return {
    watch: new WatchClient(http, {
      baseUrl: config.watchUrl,
      fromParam: config.changesFromParam,
      toParam: config.changesToParam,
    }),
    files,
    watchOrigin,
    limiters,
    async close() {
      await Promise.all([http.close(), files.close()]);
    },
  };
}
