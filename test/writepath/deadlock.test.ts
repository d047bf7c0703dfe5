import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WatchClient } from "../../src/api/watch-client.ts";
import type { ChangedItem } from "../../src/api/watch-schemas.ts";
import { addDays } from "../../src/dates.ts";
import { silentLogger } from "../../src/logger.ts";
import { noProgress } from "../../src/sync/progress.ts";
import { writeWindow } from "../../src/sync/sql/window.ts";
import { runWindows } from "../../src/sync/window-run.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { wrongFileLinks } from "../helpers/file-links.ts";

/** 3,000 changes both lists report, in one order for one list and the reverse for the other. */
function sharedItems(round: number): ChangedItem[] {
  return Array.from({ length: 3000 }, (_, i) => ({
    change: "2024-03-02",
    tax_id: String(10_000_000 + i),
    chapter: String(round % 3),
    changed_headings: ["name"],
    path: `https://files.example/${round}/${i}.json`,
  }));
}

describe("windows of different lists sharing changes", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("written in opposite orders, ten rounds, never fail with a deadlock", async () => {
    for (let round = 0; round < 10; round++) {
      const items = sharedItems(round);
      const reversed = [...items].reverse();
      const write = (listKey: string, list: ChangedItem[]) =>
        writeWindow(t.db.sql, {
          listKey,
          runId: null,
          requested: { start: "2024-03-01", end: "2024-03-07" },
          covered: { start: "2024-03-01", end: "2024-03-07" },
          items: list.map((item) => ({ item, raw: item as unknown as Record<string, unknown> })),
          invalid: [],
        });
      // Several writers per round so the two orders really meet.
      const results = await Promise.allSettled([
        write("a", items),
        write("b", reversed),
        write("c", items),
        write("d", reversed),
      ]);
      const failures = results.filter((r) => r.status === "rejected");
      expect(failures.map((f) => String((f as PromiseRejectedResult).reason))).toEqual([]);
    }
    const [row] = await t.db.sql`select count(*)::int as n from regwatch.changes`;
    expect(row!.n).toBe(30_000);
    expect(await wrongFileLinks(t.db.sql)).toEqual([]);
  });

  it("different changes sharing files, written at once by four lists: every file lists all its changes", async () => {
    // Each list reports its own businesses, but change i of every list points to file i, so the
    // windows race to create the same file rows and then to add their changes to them.
    for (let round = 0; round < 5; round++) {
      const itemsOf = (list: number): ChangedItem[] =>
        Array.from({ length: 1000 }, (_, i) => ({
          change: addDays("2024-05-01", list),
          tax_id: String(20_000_000 + list * 10_000 + i),
          chapter: "1",
          changed_headings: ["name"],
          path: `https://files.example/shared/${round}/${i}.json`,
        }));
      const results = await Promise.allSettled(
        [0, 1, 2, 3].map((list) => {
          const items = list % 2 === 0 ? itemsOf(list) : itemsOf(list).reverse();
          return writeWindow(t.db.sql, {
            listKey: `s${list}`,
            runId: null,
            requested: { start: "2024-05-01", end: "2024-05-07" },
            covered: { start: "2024-05-01", end: "2024-05-07" },
            items: items.map((item) => ({ item, raw: item as unknown as Record<string, unknown> })),
            invalid: [],
            mayBeNew: round % 2 === 0,
          });
        }),
      );
      const failures = results.filter((r) => r.status === "rejected");
      expect(failures.map((f) => String((f as PromiseRejectedResult).reason))).toEqual([]);
      const newFiles = results.map((r) => (r.status === "fulfilled" ? r.value.newFiles : 0));
      expect(newFiles.reduce((a, b) => a + b, 0)).toBe(1000);
    }
    expect(await wrongFileLinks(t.db.sql)).toEqual([]);
    const [row] = await t.db.sql`
      select count(*)::int as files, min(cardinality(change_ids))::int as least, max(newest_change)::text as newest
      from regwatch.change_files where path like 'https://files.example/shared/%'`;
    expect(row).toEqual({ files: 5000, least: 4, newest: "2024-05-04" });
  });

  it("four windows of lists sharing changes in opposite orders all complete through runWindows", async () => {
    // Two windows running through runWindows against a client that answers instantly.
    const items = sharedItems(99);
    const watch = {
      changes: async (listKey: string, from: string, to: string) => ({
        startDate: from,
        endDate: to,
        items: (listKey === "x" ? items : [...items].reverse()).map((item) => ({
          item,
          raw: item as unknown as Record<string, unknown>,
        })),
      }),
    } as unknown as WatchClient;
    const stats = await runWindows(
      ["x", "y", "x2", "y2"].map((listKey) => ({ listKey, start: "2024-03-01", end: "2024-03-07" })),
      {
        sql: t.db.sql,
        watch,
        log: silentLogger,
        runId: null,
        concurrency: 4,
        progress: noProgress,
        lastComplete: "2024-03-09",
        endInclusive: true,
      },
    );
    expect(stats.errors).toEqual([]);
    expect(stats.windowsDone).toBe(4);
  });
});
