/**
 * A list's first read of an interval inserts its changes without looking for conflicts. When some
 * were stored after all (another list reported them, or another change has the same file), the
 * window is written again the careful way: the result is the same as if it had been careful from
 * the start, and nothing fails.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WatchClient } from "../../src/api/watch-client.ts";
import type { ChangedItem } from "../../src/api/watch-schemas.ts";
import { addDays } from "../../src/dates.ts";
import type { Sql } from "../../src/db/connect.ts";
import { silentLogger } from "../../src/logger.ts";
import { RunLockLostError } from "../../src/run/lock.ts";
import { noProgress } from "../../src/sync/progress.ts";
import { writeWindow } from "../../src/sync/sql/window.ts";
import { runWindows } from "../../src/sync/window-run.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { wrongFileLinks } from "../helpers/file-links.ts";

const WEEK = { start: "2024-03-04", end: "2024-03-10" };

function change(
  taxId: string,
  headings: string[],
  path = `https://files.example/2024-03-05/companies/${taxId}.json`,
) {
  return {
    change: "2024-03-05",
    tax_id: taxId,
    chapter: "1",
    changed_headings: headings,
    path,
  } satisfies ChangedItem;
}

function write(sql: Sql, listKey: string, items: ChangedItem[], interval = WEEK) {
  return writeWindow(sql, {
    listKey,
    runId: null,
    requested: interval,
    covered: interval,
    items: items.map((item) => ({ item, raw: { ...item } })),
    invalid: [],
  });
}

async function sources(sql: Sql): Promise<string[]> {
  const rows = await sql<{ s: string }[]>`
    select c.tax_id || ':' || s.list_key as s
    from regwatch.change_sources s join regwatch.changes c on c.id = s.change_id
    order by 1`;
  return rows.map((r) => r.s);
}

describe("a list's first read of an interval", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("meets changes another list stored: they gain a source, differing headings are written, new files counted", async () => {
    const sql = t.db.sql;
    const first = await write(sql, "a", [
      change("10000001", ["name"]),
      change("10000002", ["seat"]),
      change("10000003", ["status"]),
    ]);
    expect(first).toEqual({ changes: 3, newFiles: 3 });

    // List b has never read this week, so its window is taken for new; two of its changes are not.
    const second = await write(sql, "b", [
      change("10000002", ["seat"]),
      change("10000003", ["status", "name"]),
      change("10000004", ["bank_accounts"]),
    ]);
    expect(second).toEqual({ changes: 3, newFiles: 1, metStored: true });

    const rows = await sql<{ tax_id: string; changed_headings: string[] }[]>`
      select tax_id, changed_headings from regwatch.changes order by tax_id`;
    expect(rows).toEqual([
      { tax_id: "10000001", changed_headings: ["name"] },
      { tax_id: "10000002", changed_headings: ["seat"] },
      { tax_id: "10000003", changed_headings: ["status", "name"] },
      { tax_id: "10000004", changed_headings: ["bank_accounts"] },
    ]);
    expect(await sources(sql)).toEqual([
      "10000001:a",
      "10000002:a",
      "10000002:b",
      "10000003:a",
      "10000003:b",
      "10000004:b",
    ]);
    const [coverage] = await sql`select count(*)::int as n from regwatch.coverage where list_key = 'b'`;
    expect(coverage!.n).toBe(1);
  });

  it("meets a file another change already has: the new change is stored, the file row stays one", async () => {
    const sql = t.db.sql;
    const shared = "https://files.example/2024-03-05/companies/10000001.json";
    const before = await sql<
      { status: string }[]
    >`select status from regwatch.change_files where path = ${shared}`;
    expect(before).toHaveLength(1);

    const result = await write(sql, "c", [change("10000005", ["seat"], shared)]);
    expect(result).toEqual({ changes: 1, newFiles: 0, metStored: true });

    const [row] = await sql`
      select count(*)::int as changes, count(distinct path)::int as paths
      from regwatch.changes where path = ${shared}`;
    expect(row).toEqual({ changes: 2, paths: 1 });
    const [files] = await sql`select count(*)::int as n from regwatch.change_files where path = ${shared}`;
    expect(files!.n).toBe(1);
    expect(await sources(sql)).toContain("10000005:c");
    // The file row lists both changes, so the parser gives each of them the file's values.
    const [linked] = await sql`
      select cardinality(change_ids)::int as n from regwatch.change_files where path = ${shared}`;
    expect(linked!.n).toBe(2);
    expect(await wrongFileLinks(sql)).toEqual([]);
  });

  it("a later read of days the list has covered is a re-read: the same answer leaves every row as it was", async () => {
    const sql = t.db.sql;
    const before = await sql<
      { id: string; xmin: string }[]
    >`select id::text, xmin::text from regwatch.changes order by id`;
    const again = await write(sql, "a", [change("10000001", ["name"]), change("10000002", ["seat"])], {
      start: "2024-03-05",
      end: "2024-03-06",
    });
    expect(again).toEqual({ changes: 2, newFiles: 0 });
    const after = await sql<
      { id: string; xmin: string }[]
    >`select id::text, xmin::text from regwatch.changes order by id`;
    expect(after).toEqual(before);
  });

  it("a list seen sharing changes writes its later windows the careful way: one rewrite per list and run", async () => {
    const sql = t.db.sql;
    const weeks = ["2024-04-01", "2024-04-08", "2024-04-15", "2024-04-22"];
    const itemsOf = (start: string) =>
      ["20000001", "20000002"].map((taxId) => ({
        change: start,
        tax_id: taxId,
        chapter: "1",
        changed_headings: ["seat"],
        path: `https://files.example/${start}/companies/${taxId}.json`,
      }));
    // List "first" stores every change; list "second" reports the same ones, week by week.
    for (const start of weeks) await write(sql, "first", itemsOf(start), { start, end: addDays(start, 6) });
    const watch = {
      changes: async (_listKey: string, from: string, to: string) => ({
        startDate: from,
        endDate: to,
        items: itemsOf(from).map((item) => ({ item, raw: { ...item } })),
      }),
    } as unknown as WatchClient;
    const stats = await runWindows(
      weeks.map((start) => ({ listKey: "second", start, end: addDays(start, 6) })),
      {
        sql,
        watch,
        log: silentLogger,
        runId: null,
        concurrency: 1,
        progress: noProgress,
        lastComplete: "2024-05-01",
        endInclusive: true,
      },
    );
    expect(stats.errors).toEqual([]);
    expect(stats.windowsDone).toBe(4);
    expect(stats.rewrites).toBe(1);
    const [row] = await sql`
      select count(*)::int as n from regwatch.change_sources where list_key = 'second'`;
    expect(row!.n).toBe(8);
  });

  it("with the run lock lost, neither a first read nor a re-read writes anything", async () => {
    const sql = t.db.sql;
    const lost = {
      heldSql: (q: Sql) => q`false`,
      verify: async () => {
        throw new RunLockLostError();
      },
    };
    const count = async () => {
      const [row] = await sql`
        select (select count(*) from regwatch.changes)::int as changes,
               (select count(*) from regwatch.coverage)::int as coverage,
               (select count(*) from regwatch.change_files)::int as files`;
      return row;
    };
    const before = await count();
    const week = { start: "2024-06-03", end: "2024-06-09" };
    const items = [change("30000001", ["seat"])].map((item) => ({ item, raw: { ...item } }));
    const base = { runId: null, requested: week, covered: week, items, invalid: [], lock: lost };
    await expect(writeWindow(sql, { ...base, listKey: "fresh" })).rejects.toBeInstanceOf(RunLockLostError);
    // List "a" has covered an overlapping interval before: a re-read, written in a transaction.
    await write(sql, "a", [], week);
    const afterCoverage = await count();
    await expect(writeWindow(sql, { ...base, listKey: "a" })).rejects.toBeInstanceOf(RunLockLostError);
    expect(await count()).toEqual(afterCoverage);
    expect(afterCoverage).toEqual({ ...before, coverage: before!.coverage + 1 });
  });

  it("keeps each change's own extra fields when a window's items share some and not others", async () => {
    const sql = t.db.sql;
    const week = { start: "2024-07-01", end: "2024-07-07" };
    const items = ["40000001", "40000002", "40000003", "40000004"].map((taxId) => change(taxId, ["seat"]));
    const extras = [{}, { change_type: "mklk" }, { change_type: "self_employed" }, { change_type: "mklk" }];
    await writeWindow(sql, {
      listKey: "extras",
      runId: null,
      requested: week,
      covered: week,
      items: items.map((item, i) => ({ item, raw: { ...item, ...extras[i] } })),
      invalid: [],
    });
    const rows = await sql<{ tax_id: string; raw: Record<string, unknown> }[]>`
      select tax_id, raw from regwatch.changes where tax_id like '4000000%' order by tax_id`;
    expect(rows.map((r) => r.raw)).toEqual(extras);
  });
});
