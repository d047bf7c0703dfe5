/**
 * A re-read that brings nothing new writes nothing: the daily lookback asks again for a week of
 * changes regwatch already has, and every one of them must keep its row version (xmin). What
 * does differ is written, a second list reporting a stored change only adds its source, and
 * `changes.raw` holds only the fields the typed columns do not, while `v_changes.raw` gives back
 * the whole item.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChangedItem } from "../../src/api/watch-schemas.ts";
import type { Sql } from "../../src/db/connect.ts";
import { type RunningEmulator, startEmulator } from "../../src/emulator/index.ts";
import { writeWindow } from "../../src/sync/sql/window.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { emulatorConfig, sampleTaxIds, seedList, syncAt } from "../helpers/sync.ts";

// 08:00 in Budapest on 10 March: 9 March is the last complete day.
const MORNING = "2024-03-10T08:00:00+01:00";

async function versions(sql: Sql): Promise<Map<string, string>> {
  const rows = await sql<{ id: string; xmin: string }[]>`
    select id::text, xmin::text from regwatch.changes order by id`;
  return new Map(rows.map((r) => [r.id, r.xmin]));
}

describe("re-reading what is stored", () => {
  let emulator: RunningEmulator;
  let t: TestDatabase;

  beforeAll(async () => {
    emulator = await startEmulator({
      seed: 16,
      businesses: 2000,
      now: MORNING,
      frozenClock: true,
      rateLimit: 100,
    });
    const ids = sampleTaxIds(emulator, 30);
    await seedList(emulator, { name: "suppliers", createdAt: "2024-01-10", taxIds: ids });
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await t?.drop();
    await emulator?.close();
  });

  it("a sync over the same days again updates no changes row", async () => {
    const config = emulatorConfig(emulator);
    const first = await syncAt(t.db.sql, config, emulator);
    expect(first.status).toBe("ok");
    const before = await versions(t.db.sql);
    expect(before.size).toBeGreaterThan(20);

    // The same morning again: the lookback asks for its days a second time...
    emulator.resetLog();
    const lookback = await syncAt(t.db.sql, config, emulator);
    expect(lookback.status).toBe("ok");
    // ...and a refetching backfill asks for every day again.
    const refetch = await syncAt(t.db.sql, config, emulator, {
      kind: "backfill",
      from: "2024-01-10",
      refetch: true,
    });
    expect(refetch.status).toBe("ok");
    const asked = emulator.requests().filter((r) => r.endpoint === "GET /v2/lists/:key/changes");
    expect(asked.length).toBeGreaterThan(8);

    expect(await versions(t.db.sql)).toEqual(before);
  });

  it("keeps in changes.raw only what the typed columns do not hold, and v_changes.raw whole", async () => {
    const rows = await t.db.sql<{ raw: Record<string, unknown>; whole: Record<string, unknown> }[]>`
      select c.raw, v.raw as whole from regwatch.changes c join regwatch.v_changes v using (id) limit 20`;
    expect(rows.length).toBeGreaterThan(0);
    for (const { raw, whole } of rows) {
      expect(raw).toHaveProperty("change_type");
      for (const field of ["change", "tax_id", "chapter", "changed_headings", "path"]) {
        expect(raw).not.toHaveProperty(field);
        expect(whole).toHaveProperty(field);
      }
      expect(whole.change_type).toEqual(raw.change_type);
    }
  });
});

describe("writing one window again", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await t?.drop();
  });

  const item = (n: number, headings = ["long_name"]): ChangedItem => ({
    change: `2024-03-0${1 + (n % 5)}`,
    tax_id: String(12345670 + n),
    chapter: String(n % 3),
    changed_headings: headings,
    path: `https://files.example/${n}.json`,
  });
  const write = (listKey: string, items: ChangedItem[], raw: Record<string, unknown>[]) =>
    writeWindow(t.db.sql, {
      listKey,
      runId: null,
      requested: { start: "2024-03-01", end: "2024-03-07" },
      covered: { start: "2024-03-01", end: "2024-03-07" },
      items: items.map((item, i) => ({ item, raw: raw[i]! })),
      invalid: [],
    });

  it("writes what differs, adds a second list's source without a row version, and keeps received forms", async () => {
    const items = [1, 2, 3, 4].map((n) => item(n));
    // Item 3's chapter came as a number and item 4 had no headings at all: both forms are kept.
    const raw: Record<string, unknown>[] = items.map((i) => ({ ...i, change_type: "mklk" }));
    raw[2] = { ...raw[2], chapter: 0 };
    raw[3] = { ...raw[3], changed_headings: null, note: 'a "quoted", {braced} value' };
    const firstWrite = await write("wl_a", items, raw);
    expect(firstWrite).toEqual({ changes: 4, newFiles: 4 });
    const before = await versions(t.db.sql);

    expect(await write("wl_a", items, raw)).toEqual({ changes: 4, newFiles: 0 });
    expect(await versions(t.db.sql)).toEqual(before);

    // Another list reports the same changes: sources grow, rows stay.
    await write("wl_b", items, raw);
    expect(await versions(t.db.sql)).toEqual(before);
    const [sources] = await t.db.sql<{ n: number }[]>`select count(*)::int as n from regwatch.change_sources`;
    expect(sources!.n).toBe(8);

    // One change now has different headings (and quoting characters in them): only it is rewritten.
    const changed = [...items];
    changed[0] = item(1, ["long_name", 'a "b", {c}']);
    const changedRaw = [...raw];
    changedRaw[0] = { ...changed[0], change_type: "mklk" };
    await write("wl_a", changed, changedRaw);
    const after = await versions(t.db.sql);
    const rewritten = [...after].filter(([id, xmin]) => before.get(id) !== xmin);
    expect(rewritten).toHaveLength(1);
    const [row] = await t.db.sql<{ changed_headings: string[] }[]>`
      select changed_headings from regwatch.changes where tax_id = ${changed[0]!.tax_id}`;
    expect(row!.changed_headings).toEqual(["long_name", 'a "b", {c}']);

    const whole = await t.db.sql<{ tax_id: string; raw: Record<string, unknown> }[]>`
      select tax_id, raw from regwatch.v_changes order by tax_id`;
    expect(whole.map((w) => w.raw)).toEqual([
      changedRaw[0],
      raw[1],
      raw[2],
      { ...raw[3], changed_headings: null },
    ]);
  });
});
