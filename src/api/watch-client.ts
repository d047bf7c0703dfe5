/**
 * Client of the registry's watch interface (v2). Paths are appended to the configured base, so a
 * deployment under a path prefix works. Every response is validated; unknown fields are kept.
 */
import type { z } from "zod";
import type { BodyCap } from "./body.ts";
import { ApiError } from "./errors.ts";
import { type HttpClient, type HttpResponse, parseJson } from "./http.ts";
import { MAX_SERIES_PAGES, tooManyPages } from "./page-bound.ts";
import {
  type BulkResult,
  bulkResultSchema,
  type ChangedItem,
  changedItemSchema,
  changesResponseSchema,
  itemsResponseSchema,
  listsResponseSchema,
  type WatchedItem,
  type WatchList,
  watchListSchema,
} from "./watch-schemas.ts";

/** A changed item as the contract reads it, and as it was received (fields the contract does not name included). */
export interface ReceivedChange {
  item: ChangedItem;
  raw: Record<string, unknown>;
}

export interface ChangesPage {
  /** The interval the server says it returned; this, not what was asked, is what is covered. */
  startDate: string;
  endDate: string;
  /** Each item, checked against the contract, with the object it was parsed from. */
  items: ReceivedChange[];
  /** Pages read (1 when the answer was not paginated); all of them are in. */
  pages: number;
}

export interface WatchClientOptions {
  baseUrl: string;
  fromParam: string;
  toParam: string;
  /** Page parameter sent when a changes answer says `has_next` (REGWATCH_CHANGES_PAGE_PARAM). */
  pageParam?: string;
  /** Most pages read for one changes window (default MAX_SERIES_PAGES); more fails the window (TOO_MANY_PAGES). */
  maxPages?: number;
  /** Byte cap of one changes window, all pages together (REGWATCH_MAX_RESPONSE_BYTES). */
  maxResponseBytes?: number;
  /** Wall time, for matching a list created during an ambiguous attempt (tests pass a fixed one). */
  now?: () => number;
}

const DEFAULT_MAX_RESPONSE_BYTES = 4 * 1024 * 1024;
/** Failures after which a POST may or may not have taken effect. */
const AMBIGUOUS: ReadonlySet<string> = new Set([
  "HTTP_SERVER",
  "TIMEOUT",
  "NETWORK",
  "BAD_RESPONSE",
  "BAD_ENCODING",
]);

export class WatchClient {
  private readonly options: WatchClientOptions;

  constructor(
    private readonly http: HttpClient,
    options: WatchClientOptions,
  ) {
    this.options = { ...options };
  }

  /**
   * The changes parameters to send from now on: a run sets them once it knows what the registry's
   * description says (and what the environment insists on), before its first changes request.
   */
  useChangesParams(params: { from: string; to: string; page?: string }): void {
    this.options.fromParam = params.from;
    this.options.toParam = params.to;
    if (params.page !== undefined) this.options.pageParam = params.page;
  }

  async lists(): Promise<{ lists: WatchList[]; total: number | null | undefined }> {
    const endpoint = "GET /v2/lists";
    const body = await this.call({ method: "GET", path: "/v2/lists", endpoint }, listsResponseSchema);
    return { lists: body.watch_lists, total: body.total_watch_count };
  }

  /**
   * Creates a list, at most twice and never blindly. POST /v2/lists is not idempotent: after an
   * ambiguous failure (5xx, timeout, reset, garbled answer) the list may exist, so the lists are
   * read again and a list of that name created since the attempt is adopted; only when there is
   * none is the list created once more. A 4xx is thrown as it is; a 429 (the server did not act)
   * is retried by the HTTP layer.
   *
   * "Created since the attempt": with `knownKeys` (the keys of the lists read before deciding to
   * create, as the reconciler has them), a list of that name whose key is not among them; without
   * it, a list of that name whose `created_at` is not before the attempt's day (the day before,
   * in UTC, so that no zone offset of the registry hides a list created seconds ago).
   */
  async createList(name: string, options: { knownKeys?: Iterable<string> } = {}): Promise<WatchList> {
    const known = options.knownKeys ? new Set(options.knownKeys) : undefined;
    const attemptDay = new Date((this.options.now?.() ?? Date.now()) - 86_400_000).toISOString().slice(0, 10);
    const createdSince = (list: WatchList) =>
      known ? !known.has(list.list_key) : list.created_at == null || list.created_at >= attemptDay;
    try {
      return await this.postList(name);
    } catch (error) {
      if (!(error instanceof ApiError) || !AMBIGUOUS.has(error.code)) throw error;
      const { lists } = await this.lists();
      const adopted = lists.filter((list) => list.list_name === name && createdSince(list)).at(-1);
      if (adopted) return adopted;
      return this.postList(name);
    }
  }

  private postList(name: string): Promise<WatchList> {
    return this.call(
      {
        method: "POST",
        path: "/v2/lists",
        endpoint: "POST /v2/lists",
        body: { list_name: name },
        expect: [200, 201],
        idempotent: false,
      },
      watchListSchema,
    );
  }

  async deleteList(listKey: string, name: string): Promise<void> {
    await this.http.request({
      method: "DELETE",
      url: this.url(`/v2/lists/${encodeURIComponent(listKey)}`),
      endpoint: "DELETE /v2/lists/:key",
      body: { list_name: name },
      expect: [200, 202, 204],
    });
  }

  async items(listKey: string): Promise<WatchedItem[]> {
    const path = `/v2/lists/${encodeURIComponent(listKey)}/items`;
    const body = await this.call(
      { method: "GET", path, endpoint: "GET /v2/lists/:key/items" },
      itemsResponseSchema,
    );
    return body.watched_items;
  }

  /** Bulk add: the 200 says nothing per item; the result names each tax id's outcome. */
  async addItems(listKey: string, taxIds: string[]): Promise<BulkResult> {
    return this.bulk("POST", listKey, taxIds);
  }

  async removeItems(listKey: string, taxIds: string[]): Promise<BulkResult> {
    return this.bulk("DELETE", listKey, taxIds);
  }

  /**
   * Changes of one list in [from, to] (both inclusive as asked; the answer says what it covers).
   * An answer with `has_next: true` is followed page by page (the page parameter from 2 on) until
   * its last page, within a page bound and one byte cap for all pages; the result is one answer
   * whose interval is the first page's. Every page must report that same interval, else the
   * window fails (PAGES_DISAGREE): nothing of a partial or inconsistent answer is returned.
   */
  async changes(listKey: string, from: string, to: string, signal?: AbortSignal): Promise<ChangesPage> {
    const maxPages = this.options.maxPages ?? MAX_SERIES_PAGES;
    const capBytes = this.options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    let usedBytes = 0;
    let merged: ChangesPage | undefined;
    for (let page = 1; ; page++) {
      const cap: BodyCap = {
        bytes: capBytes - usedBytes,
        name: page === 1 ? "REGWATCH_MAX_RESPONSE_BYTES" : "REGWATCH_MAX_RESPONSE_BYTES, all pages together",
      };
      const { result, hasNext, bytes } = await this.changesPage(listKey, from, to, page, cap, signal);
      usedBytes += bytes;
      if (!merged) merged = result;
      else {
        if (result.startDate !== merged.startDate || result.endDate !== merged.endDate) {
          throw new ApiError(
            "PAGES_DISAGREE",
            `GET /v2/lists/:key/changes: page ${page} reports ${result.startDate}..${result.endDate}, ` +
              `page 1 reported ${merged.startDate}..${merged.endDate}; the window is not taken`,
            { endpoint: "GET /v2/lists/:key/changes" },
          );
        }
        merged.items.push(...result.items);
        merged.pages = page;
      }
      if (!hasNext) return merged;
      if (page >= maxPages) {
        throw tooManyPages(
          "GET /v2/lists/:key/changes",
          maxPages,
          "the window is not taken and no day of it is covered",
        );
      }
    }
  }

  private changesPage(
    listKey: string,
    from: string,
    to: string,
    page: number,
    cap: BodyCap,
    signal: AbortSignal | undefined,
  ): Promise<{ result: ChangesPage; hasNext: boolean; bytes: number }> {
    const endpoint = "GET /v2/lists/:key/changes";
    const url = this.url(`/v2/lists/${encodeURIComponent(listKey)}/changes`);
    url.searchParams.set(this.options.fromParam, from);
    url.searchParams.set(this.options.toParam, to);
    if (page > 1) url.searchParams.set(this.options.pageParam ?? "page", String(page));
    const request = this.http.request({ method: "GET", url, endpoint, cap, signal }, (response) => {
      const body = validate(changesResponseSchema, parseJson(response, endpoint), endpoint, response);
      const items = body.changed_items.map(
        (entry, index): ReceivedChange => ({
          item: validate(changedItemSchema, entry, `${endpoint} changed_items[${index}]`, response),
          raw: entry as Record<string, unknown>,
        }),
      );
      if (body.start_date > body.end_date) {
        throw new ApiError(
          "BAD_RESPONSE",
          `${endpoint}: start_date ${body.start_date} is after end_date ${body.end_date}`,
          {
            endpoint,
            status: response.status,
          },
        );
      }
      return {
        result: { startDate: body.start_date, endDate: body.end_date, items, pages: page },
        hasNext: body.has_next === true,
        bytes: response.body.length,
      };
    });
    return request.catch((error: unknown) => {
      throw this.withParameterHint(error);
    });
  }

  /**
   * A refusal that names a query parameter (a FastAPI 422, say) most likely means the names sent
   * are not the registry's: the message says which were sent and where they come from.
   */
  private withParameterHint(error: unknown): unknown {
    if (!(error instanceof ApiError) || (error.status !== 400 && error.status !== 422)) return error;
    if (!/query parameter/.test(error.message)) return error;
    const { fromParam, toParam } = this.options;
    return new ApiError(
      error.code,
      `${error.message} (regwatch sent the interval as ${fromParam} and ${toParam}: the names come from ` +
        "REGWATCH_CHANGES_FROM_PARAM / REGWATCH_CHANGES_TO_PARAM when set, else from the registry's " +
        "description at {watch_base_url}/docs, else the defaults; `regwatch doctor` compares them)",
      { endpoint: error.endpoint, status: error.status, attempts: error.attempts, cause: error },
    );
  }

  private async bulk(method: "POST" | "DELETE", listKey: string, taxIds: string[]): Promise<BulkResult> {
    const path = `/v2/lists/${encodeURIComponent(listKey)}/items`;
    const endpoint = `${method} /v2/lists/:key/items`;
    const result = await this.call({ method, path, endpoint, body: { tax_ids: taxIds } }, bulkResultSchema);
    return result;
  }

  private call<S extends z.ZodType>(
    spec: {
      method: "GET" | "POST" | "DELETE";
      path: string;
      endpoint: string;
      body?: unknown;
      expect?: number[];
      idempotent?: boolean;
    },
    schema: S,
  ): Promise<z.output<S>> {
    const request = {
      method: spec.method,
      url: this.url(spec.path),
      endpoint: spec.endpoint,
      body: spec.body,
      expect: spec.expect,
      idempotent: spec.idempotent,
    };
    return this.http.request(request, (response) =>
      validate(schema, parseJson(response, spec.endpoint), spec.endpoint, response),
    );
  }

  private url(path: string): URL {
    return new URL(`${this.options.baseUrl}${path}`);
  }
}

function validate<S extends z.ZodType>(
  schema: S,
  value: unknown,
  what: string,
  response: HttpResponse,
): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue?.path.length ? issue.path.join(".") : "body";
  throw new ApiError(
    "BAD_RESPONSE",
    `${what}: unexpected response, ${where} ${issue?.message ?? "is invalid"}`,
    {
      endpoint: what,
      status: response.status,
      attempts: response.attempts,
    },
  );
}
