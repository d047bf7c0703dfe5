/**
 * The one way a process builds its registry clients: the watch client and the change-file
 * download over one HttpClient per interface (see createRegistry), with every request counted in
 * `api_usage` by one UsageRecorder, and whatever else wants to hear of each request (a progress
 * bar, the daemon's metrics) told as well. `close` closes the clients and flushes the counts.
 */
import type { RequestResult, RetryInfo } from "../api/http.ts";
import { createRegistry, type RegistryClients } from "../api/registry.ts";
import { createSearchClient, type SearchClient, SearchQuota } from "../api/search-client.ts";
import type { Config } from "../config.ts";
import type { Sql } from "../db/connect.ts";
import { classifyDatabaseError, DatabaseUnavailableError } from "../db/db-errors.ts";
import { coerceError } from "../errors.ts";
import type { Logger } from "../logger.ts";
import { claimSearchRequest, searchRequestsThisMonth, UsageRecorder } from "./usage.ts";

export interface OpenRegistryOptions {
  /** The process's stop (SIGTERM): cuts every request, pause and backoff in flight. */
  signal?: AbortSignal;
  /** Told of every request after it is counted (progress, metrics). */
  onRequest?: (result: RequestResult) => void;
  /** Told of every retry (progress, while no answer has come yet). */
  onRetry?: (info: RetryInfo) => void;
  now?: () => Date;
}

export interface OpenRegistry {
  clients: RegistryClients;
  usage: UsageRecorder;
  /**
   * Closes the clients, then adds the last counts to `api_usage`. After a stop, a request may
   * still hang in a client: closing then waits at most `boundMs`, and what is left goes with
   * the process.
   */
  close(options?: { boundMs?: number; databaseLost?: boolean }): Promise<void>;
}

/** The configuration once `requireWatch` has checked REGWATCH_WATCH_URL and REGWATCH_API_KEY. */
export type WatchConfig = Config & { watchUrl: string; apiKey: string };

/** Builds the clients; nothing is sent and nothing written until a client is used. */
export function openRegistry(
  config: WatchConfig,
  log: Logger,
  sql: Sql,
  options: OpenRegistryOptions = {},
): OpenRegistry {
  const usage = new UsageRecorder(sql, config.tz, options.now);
  const clients = createRegistry(config, {
    log,
    signal: options.signal,
    ...(options.onRetry ? { onRetry: options.onRetry } : {}),
    onResult: (r) => {
      usage.record({ api: r.api, endpoint: r.endpoint, error: r.code !== undefined });
      options.onRequest?.(r);
    },
  });
  let closed: Promise<void> | undefined;
  return {
    clients,
    usage,
    close(closeOptions = {}) {
      closed ??= (async () => {
        const closing = clients.close().catch(() => {});
        if (closeOptions.boundMs === undefined) await closing;
        else await Promise.race([closing, new Promise((r) => setTimeout(r, closeOptions.boundMs).unref())]);
        // With the database gone the flush could only fail: the run's one message says why.
        if (closeOptions.databaseLost) return;
        await usage.flush().catch((error) => {
          // The database went away: the command's own message names it, once.
          const gone = classifyDatabaseError(error) instanceof DatabaseUnavailableError;
          log[gone ? "debug" : "warn"](
            { err: coerceError(error).message },
            "could not record API usage at the end",
          );
        });
      })();
      return closed;
    },
  };
}

export interface OpenSearch {
  client: SearchClient;
  /** This month's allowance, starting from the count in `api_usage`. */
  quota: SearchQuota;
  /** Closes the client, then adds its failed requests to `api_usage`. */
  close(): Promise<void>;
}

/**
 * The search client of a process (once `requireSearch` has checked its settings): every attempt
 * claims one request of the monthly quota, counted in `api_usage` before it is sent (so two
 * processes cannot both take the last one); only failures are added after.
 */
export async function openSearch(
  config: Config & { searchUrl: string; searchApiKey: string },
  log: Logger,
  sql: Sql,
): Promise<OpenSearch> {
  const limit = config.searchMonthlyQuota;
  const quota = new SearchQuota(limit, await searchRequestsThisMonth(sql, config.tz), (endpoint) =>
    claimSearchRequest(sql, { endpoint, limit, timeZone: config.tz }),
  );
  const usage = new UsageRecorder(sql, config.tz);
  const search = createSearchClient(config, {
    log,
    quota,
    // Every attempt was counted when it was claimed; only its failures are added here.
    onResult: (r) => {
      if (r.code !== undefined) usage.record({ api: r.api, endpoint: r.endpoint, error: true, requests: 0 });
    },
  });
  return {
    client: search.client,
    quota,
    async close() {
      await search.close();
      try {
        await usage.flush();
      } catch (error) {
        log.error({ err: error }, "could not record search usage in api_usage");
        throw error;
      }
    },
  };
}
