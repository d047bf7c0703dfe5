/**
 * Client of the registry's search interface (v1). Every request counts toward a monthly quota
 * (docs/registry.md, "Search interface"), so values are checked before anything is sent, and a `SearchQuota` is
 * consulted before every attempt, retries included: once the month's allowance is spent, the
 * client refuses instead of sending.
 */
import type { Config } from "../config.ts";
import { interfaceBase } from "../config-url.ts";
import { RegwatchError, UsageError } from "../errors.ts";
import type { Logger } from "../logger.ts";
import { type Clock, systemClock } from "./clock.ts";
import { ApiError } from "./errors.ts";
import { HttpClient, type HttpResponse, parseJson, type RequestResult } from "./http.ts";
import { KeyRefusal } from "./key-refusal.ts";
import { MAX_SERIES_PAGES, tooManyPages } from "./page-bound.ts";
import { gatedLimiter, limiterForKey } from "./rate-limiter.ts";
import { httpOptionsOf } from "./registry.ts";
import { checkSearchValue, SEARCH_PATHS, type SearchKind } from "./search-query.ts";
import { type BusinessRecord, type SearchPage, searchPageSchema } from "./search-schemas.ts";

/** The month's search allowance is spent; nothing was sent. Exit 1 (the command failed). */
export class SearchQuotaError extends RegwatchError {
  constructor(message: string) {
    super("SEARCH_QUOTA", message);
  }
}

/**
 * Claims one search request for `endpoint` where every process sees it (api_usage), before it is
 * sent: `granted` false when the month's allowance is spent; `used` is the month's count after.
 */
export type QuotaLedger = (endpoint: string) => Promise<{ granted: boolean; used: number }>;

/**
 * Requests left this month. With a ledger, every attempt is claimed durably before it is sent,
 * so a process killed mid-search has counted what it sent, and processes searching at once take
 * turns on one count. Without one (unit tests), `used` starts at the given count and grows here.
 */
export class SearchQuota {
  constructor(
    readonly limit: number,
    private usedSoFar: number,
    private readonly ledger?: QuotaLedger,
  ) {}

  get used(): number {
    return this.usedSoFar;
  }

  get remaining(): number {
    return Math.max(0, this.limit - this.usedSoFar);
  }

  /** Claims one request, or throws SearchQuotaError when none is left. */
  async take(endpoint: string): Promise<void> {
    if (this.ledger) {
      const claim = await this.ledger(endpoint);
      this.usedSoFar = claim.used;
      if (claim.granted) return;
    }
    if (this.usedSoFar >= this.limit) {
      throw new SearchQuotaError(
        `the monthly search quota is used up: ${this.usedSoFar} search request(s) counted this month, ` +
          `REGWATCH_SEARCH_MONTHLY_QUOTA is ${this.limit}; no request was sent ` +
          "(raise REGWATCH_SEARCH_MONTHLY_QUOTA if the contract allows more)",
      );
    }
    this.usedSoFar++;
  }
}

export interface SearchOptions {
  /** Follow `has_next` to the last page; otherwise only the first page is fetched. */
  all?: boolean;
  /** Hit cap sent as the limit parameter (the registry honours it for name searches). */
  limit?: number;
  /** Most pages followed with `all` (default MAX_SERIES_PAGES); more fails the search (TOO_MANY_PAGES). */
  maxPages?: number;
  /** Called with each page as it arrives, so what was paid for is kept even if a later page fails. */
  onPage?: (page: SearchPage, pageNumber: number) => Promise<void> | void;
}

export interface SearchResult {
  records: BusinessRecord[];
  pages: number;
  /** The last page fetched said more could be fetched. */
  hasMore: boolean;
}

export interface SearchClientOptions {
  baseUrl: string;
  params: Config["searchParams"];
}

export class SearchClient {
  constructor(
    private readonly httpFor: (kind: SearchKind) => HttpClient,
    private readonly options: SearchClientOptions,
  ) {}

  /** Checks `value`, then fetches one page or, with `all`, every page. */
  async search(kind: SearchKind, rawValue: string, options: SearchOptions = {}): Promise<SearchResult> {
    const checked = checkSearchValue(kind, rawValue);
    if (!checked.ok) throw new UsageError(checked.problem);
    const records: BusinessRecord[] = [];
    let pageNumber = 1;
    for (;;) {
      const page = await this.page(kind, checked.value, pageNumber, options.limit);
      records.push(...page.results);
      await options.onPage?.(page, pageNumber);
      // An empty page that claims more would make us pay for pages forever: treat it as the end.
      const more = page.has_next && page.results.length > 0;
      if (!more || !options.all) return { records, pages: pageNumber, hasMore: more };
      const bound = options.maxPages ?? MAX_SERIES_PAGES;
      if (pageNumber >= bound) {
        throw tooManyPages(
          `GET ${SEARCH_PATHS[kind]}`,
          bound,
          "the search stops (the pages read so far are kept)",
        );
      }
      pageNumber++;
    }
  }

  /** One page of results; `value` must already be checked. */
  async page(kind: SearchKind, value: string, pageNumber: number, limit?: number): Promise<SearchPage> {
    const path = SEARCH_PATHS[kind];
    const endpoint = `GET ${path}`;
    const url = new URL(`${this.options.baseUrl}${path}`);
    url.searchParams.set(this.options.params.value, value);
    if (limit !== undefined) url.searchParams.set(this.options.params.limit, String(limit));
    if (pageNumber > 1) url.searchParams.set(this.options.params.page, String(pageNumber));
    return this.httpFor(kind).request({ method: "GET", url, endpoint }, (response) =>
      parsePage(response, endpoint),
    );
  }
}

function parsePage(response: HttpResponse, endpoint: string): SearchPage {
  const result = searchPageSchema.safeParse(parseJson(response, endpoint));
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.join(".") : "the body";
  // Well-formed JSON of the wrong shape comes back the same on every retry: not retried, not paid twice.
  throw new ApiError(
    "UNEXPECTED_SHAPE",
    `${endpoint}: not a search result page (${field}: ${issue?.message})`,
    {
      endpoint,
      status: response.status,
      attempts: response.attempts,
    },
  );
}

export interface SearchConnection {
  client: SearchClient;
  close(): Promise<void>;
}

/**
 * Builds the search client from configuration. The key (and the client id, when configured)
 * goes only to the search interface's origin; its requests are paced at REGWATCH_RATE_LIMIT.
 */
export function createSearchClient(
  config: Config & { searchUrl: string; searchApiKey: string },
  options: { log: Logger; quota: SearchQuota; onResult?: (result: RequestResult) => void; clock?: Clock },
): SearchConnection {
  const clock = options.clock ?? systemClock;
  const origin = new URL(config.searchUrl).origin;
  const headers: Record<string, string> = { "x-api-key": config.searchApiKey };
  if (config.clientId) headers["x-client-id"] = config.clientId;
  const clients = new Map<SearchKind, HttpClient>();
  // A refused search key ends every search request of this client (payments check --online).
  const refusal = new KeyRefusal(
    config.keyVariables?.searchApiKey ??
      (config.explicit.has("REGWATCH_SEARCH_API_KEY") ? "REGWATCH_SEARCH_API_KEY" : "REGWATCH_API_KEY"),
  );
  const httpFor = (kind: SearchKind) => {
    let http = clients.get(kind);
    if (!http) {
      // Every attempt claims its quota first, under the endpoint it pays for, then paces on the
      // key's one limiter, shared with the watch interface when the key is the same.
      const endpoint = `GET ${SEARCH_PATHS[kind]}`;
      const gate = gatedLimiter(limiterForKey(config.searchApiKey, config.rateLimit, clock), () =>
        options.quota.take(endpoint),
      );
      http = new HttpClient({
        ...httpOptionsOf(config, clock, options.log),
        refusal,
        api: "search",
        limiterFor: () => gate,
        credentials: { origin, headers },
        cap: { bytes: config.maxResponseBytes, name: "REGWATCH_MAX_RESPONSE_BYTES" },
        onResult: options.onResult,
      });
      clients.set(kind, http);
    }
    return http;
  };
  return {
    // The /v1/... paths go after the address without its version segment.
    client: new SearchClient(httpFor, {
      baseUrl: interfaceBase(config.searchUrl, "v1").root,
      params: config.searchParams,
    }),
    close: async () => {
      await Promise.all([...clients.values()].map((http) => http.close()));
    },
  };
}
