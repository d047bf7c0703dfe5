/**
 * Client of the registry's watch interface (v2). Paths are appended to the configured base, so a
 * deployment under a path prefix works. Every response is validated; unknown fields are kept.
 */
import type { z } from "zod";
import { ApiError } from "./errors.ts";
import { type HttpClient, type HttpResponse, parseJson } from "./http.ts";
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

export interface ChangesPage {
  /** The interval the server says it returned; this, not what was asked, is what is covered. */
  startDate: string;
  endDate: string;
  items: ChangedItem[];
  /** Each item as received, for `changes.raw`. */
  raw: Record<string, unknown>[];
}

export interface WatchClientOptions {
  baseUrl: string;
  fromParam: string;
  toParam: string;
}

export class WatchClient {
  constructor(
    private readonly http: HttpClient,
    private readonly options: WatchClientOptions,
  ) {}

  async lists(): Promise<{ lists: WatchList[]; total: number | null | undefined }> {
    const endpoint = "GET /v2/lists";
    const body = await this.call({ method: "GET", path: "/v2/lists", endpoint }, listsResponseSchema);
    return { lists: body.watch_lists, total: body.total_watch_count };
  }

  async createList(name: string): Promise<WatchList> {
    return this.call(
      {
        method: "POST",
        path: "/v2/lists",
        endpoint: "POST /v2/lists",
        body: { list_name: name },
        expect: [200, 201],
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

  /** Changes of one list in [from, to] (both inclusive as asked; the answer says what it covers). */
  async changes(listKey: string, from: string, to: string): Promise<ChangesPage> {
    const endpoint = "GET /v2/lists/:key/changes";
    const url = this.url(`/v2/lists/${encodeURIComponent(listKey)}/changes`);
    url.searchParams.set(this.options.fromParam, from);
    url.searchParams.set(this.options.toParam, to);
    return this.http.request({ method: "GET", url, endpoint }, (response) => {
      const body = validate(changesResponseSchema, parseJson(response, endpoint), endpoint, response);
      const items: ChangedItem[] = [];
      const raw: Record<string, unknown>[] = [];
      body.changed_items.forEach((entry, index) => {
        const item = validate(changedItemSchema, entry, `${endpoint} changed_items[${index}]`, response);
        items.push(item);
        raw.push(entry as Record<string, unknown>);
      });
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
      return { startDate: body.start_date, endDate: body.end_date, items, raw };
    });
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
    },
    schema: S,
  ): Promise<z.output<S>> {
    const request = {
      method: spec.method,
      url: this.url(spec.path),
      endpoint: spec.endpoint,
      body: spec.body,
      expect: spec.expect,
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
