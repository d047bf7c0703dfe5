/**
 * Issue 48, point 17: a registry that answers `has_next: true` forever is followed to the page
 * bound of one series (MAX_SERIES_PAGES), no further: the window fails naming the endpoint and the
 * bound, is not asked again in halves, and no day of it becomes covered; the list's other windows
 * are not asked in that run, and another list's windows go on as usual.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_SERIES_PAGES } from "../../src/api/page-bound.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { type HostileRegistry, hostileEnv, json, startHostileRegistry } from "../helpers/hostile-registry.ts";

let t: TestDatabase;
let registry: HostileRegistry;

beforeAll(async () => {
  t = await createTestDatabase();
  registry = await startHostileRegistry({
    lists: [
      { list_key: "wl_endless", list_name: "endless", created_at: "2024-03-01" },
      { list_key: "wl_fine", list_name: "fine", created_at: "2024-03-01" },
    ],
    changes: (q) =>
      json({ start_date: q.from, end_date: q.to, changed_items: [], has_next: q.listKey === "wl_endless" }),
  });
});
afterAll(async () => {
  await t?.drop();
  await registry?.close();
});

describe("a changes answer that never ends", () => {
  it("fails its window at the page bound and covers nothing of it", async () => {
    // Five weeks: five windows of the endless list, one more than the four a run with
    // REGWATCH_CONCURRENCY 1 ever has in flight, so at least one starts after a first has failed.
    const extra = { REGWATCH_RATE_LIMIT: "100000", REGWATCH_CONCURRENCY: "1" };
    const env = { DATABASE_URL: t.url, ...hostileEnv(registry, extra) };
    const result = await runCli(["backfill", "--from", "2024-03-01", "--to", "2024-04-04"], env, 240_000);
    expect(result.code, result.stderr).not.toBe(0);
    expect(`${result.stdout}${result.stderr}`).toContain(
      `GET /v2/lists/:key/changes: the registry still said has_next after ${MAX_SERIES_PAGES} pages`,
    );
    const endless = registry.asked.filter((q) => q.listKey === "wl_endless");
    // Each series to its bound, none asked again in halves (no interval inside another), and the
    // list's windows started after the first failure not at all.
    const series = new Map<string, number>();
    for (const q of endless) series.set(`${q.from}..${q.to}`, (series.get(`${q.from}..${q.to}`) ?? 0) + 1);
    expect([...series.values()].every((n) => n === MAX_SERIES_PAGES)).toBe(true);
    expect(series.size).toBeGreaterThanOrEqual(1);
    expect(series.size).toBeLessThan(5);
    const intervals = [...series.keys()].map((k) => k.split(".."));
    for (const [from, to] of intervals) {
      expect(intervals.filter(([f, e]) => f! <= to! && from! <= e!)).toHaveLength(1);
    }
    expect(`${result.stdout}${result.stderr}`).toContain(
      "not asked: an earlier window of this list ran past the page bound in this run",
    );
    const covered = await t.db.sql<{ list_key: string }[]>`
      select distinct list_key from regwatch.coverage order by list_key`;
    expect(covered.map((r) => r.list_key)).toEqual(["wl_fine"]);
  }, 300_000);
});
