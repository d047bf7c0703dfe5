import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ApiError } from "../../src/api/errors.ts";
import { createSearchClient, SearchQuota, SearchQuotaError } from "../../src/api/search-client.ts";
import { loadConfig, requireSearch } from "../../src/config.ts";
import { createLogger } from "../../src/logger.ts";

/** A stand-in search server: answers from `pages` by page number and records what it was sent. */
let server: Server;
let base: string;
let seen: { path: string; query: URLSearchParams; headers: IncomingHttpHeaders }[];
let pages: (page: number) => unknown;

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    seen.push({ path: url.pathname, query: url.searchParams, headers: req.headers });
    const body = pages(Number(url.searchParams.get("p") ?? "1"));
    res.writeHead(200, { "content-type": "application/json" });
    res.end(typeof body === "string" ? body : JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen = [];
});

const record = (n: number) => ({
  type: "companies",
  tax_number: `1000000${n}-2-41`,
  full_name: `Cég ${n}`,
  extra: n,
});

function client(quota = new SearchQuota(100, 0), env: Record<string, string> = {}) {
  const config = loadConfig({
    REGWATCH_SEARCH_URL: base,
    REGWATCH_SEARCH_API_KEY: "search-key",
    REGWATCH_CLIENT_ID: "ACME-00001",
    REGWATCH_SEARCH_VALUE_PARAM: "q",
    REGWATCH_SEARCH_PAGE_PARAM: "p",
    REGWATCH_SEARCH_LIMIT_PARAM: "n",
    REGWATCH_MAX_ATTEMPTS: "2",
    ...env,
  });
  requireSearch(config);
  return createSearchClient(config, { log: createLogger({ level: "silent" }), quota });
}

describe("SearchClient", () => {
  it("sends the configured parameter names and credentials, follows pages, keeps unknown fields", async () => {
    pages = (p) => ({ current_page: p, has_next: p < 3, results: [record(p)] });
    const search = client();
    const result = await search.client.search("name", "  Cég  kft ", { all: true, limit: 20 });
    await search.close();
    expect(result.pages).toBe(3);
    expect(result.hasMore).toBe(false);
    expect(result.records.map((r) => r.extra)).toEqual([1, 2, 3]);
    expect(seen.map((s) => [s.path, s.query.get("q"), s.query.get("n"), s.query.get("p")])).toEqual([
      ["/api/v1/names", "Cég kft", "20", null],
      ["/api/v1/names", "Cég kft", "20", "2"],
      ["/api/v1/names", "Cég kft", "20", "3"],
    ]);
    expect(seen[0]?.headers["x-api-key"]).toBe("search-key");
    expect(seen[0]?.headers["x-client-id"]).toBe("ACME-00001");
  });

  it("stops at an empty page that claims more, instead of paying for pages forever", async () => {
    pages = (p) => ({ current_page: p, has_next: true, results: p === 1 ? [record(1)] : [] });
    const search = client();
    const result = await search.client.search("bank-account", "11111111-22222222", { all: true });
    await search.close();
    expect(result.pages).toBe(2);
    expect(seen).toHaveLength(2);
  });

  it("fails a series that never ends at its page bound, naming the endpoint and the bound", async () => {
    pages = (p) => ({ current_page: p, has_next: true, results: [record(p)] });
    const search = client();
    const kept: number[] = [];
    const error = await search.client
      .search("name", "Cég", { all: true, maxPages: 5, onPage: (_page, n) => void kept.push(n) })
      .catch((e: unknown) => e);
    await search.close();
    expect((error as ApiError).code).toBe("TOO_MANY_PAGES");
    expect((error as Error).message).toContain(
      "GET /v1/names: the registry still said has_next after 5 pages",
    );
    expect(seen).toHaveLength(5);
    expect(kept).toEqual([1, 2, 3, 4, 5]);
  });

  it("claims the quota before every request and refuses when it is spent", async () => {
    pages = (p) => ({ current_page: p, has_next: true, results: [record(p)] });
    const quota = new SearchQuota(5, 3);
    const search = client(quota);
    const pagesSeen: number[] = [];
    const error = await search.client
      .search("reg-number", "01-09-123456", { all: true, onPage: (_, n) => void pagesSeen.push(n) })
      .catch((e: unknown) => e);
    await search.close();
    expect(error).toBeInstanceOf(SearchQuotaError);
    expect((error as Error).message).toContain("REGWATCH_SEARCH_MONTHLY_QUOTA is 5");
    expect(pagesSeen).toEqual([1, 2]);
    expect(seen).toHaveLength(2);
    expect(quota.remaining).toBe(0);
  });

  it("refuses a bad value without sending, and a body that is not a result page", async () => {
    const search = client();
    await expect(search.client.search("name", "x")).rejects.toMatchObject({ code: "USAGE", exitCode: 64 });
    expect(seen).toEqual([]);
    // Well-formed JSON of the wrong shape would come back the same: one paid attempt, no retry.
    pages = () => ({ current_page: 1, results: [] });
    await expect(search.client.search("name", "abc")).rejects.toMatchObject({
      code: "UNEXPECTED_SHAPE",
      message: expect.stringContaining("has_next"),
    });
    expect(seen).toHaveLength(1);
    // A garbled body may come out right: retried (REGWATCH_MAX_ATTEMPTS=2 here).
    pages = () => '{"current_page": 1, "has_n';
    await expect(search.client.search("name", "abc")).rejects.toMatchObject({ code: "BAD_RESPONSE" });
    expect(seen).toHaveLength(3);
    await search.close();
  });

  it("accepts a record without the fields a contract may leave out, tax_number included", async () => {
    pages = () => ({ current_page: 1, has_next: false, results: [{ full_name: "no tax number" }] });
    const quota = new SearchQuota(10, 0);
    const search = client(quota);
    const result = await search.client.search("name", "abc");
    await search.close();
    expect(result.records).toEqual([{ full_name: "no tax number" }]);
    expect(quota.used).toBe(1);
  });
});
