/**
 * End to end against the emulator's realistic world: files shared by every business of a form and
 * day (entries shuffled), same-day corrections chained across chapters, headings twice in one
 * file, values that continue each other, and search records that show the latest change. After a
 * sync, every file is read and attributed, no value is left in an unknown order, and what
 * regwatch says a business holds (its profile, business_as_of on the last complete day) is
 * exactly what the registry's current record shows.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HEADING_FIELDS } from "../../src/emulator/heading-values.ts";
import { type RunningEmulator, startEmulator } from "../../src/emulator/index.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { emulatorConfig, sampleTaxIds, seedList, syncAt } from "../helpers/sync.ts";

const MORNING = "2024-03-10T08:00:00+01:00";
const LAST_COMPLETE = "2024-03-09";

describe("values in the emulator's realistic world", () => {
  let emulator: RunningEmulator;
  let t: TestDatabase;
  let watched: string[];

  beforeAll(async () => {
    emulator = await startEmulator({
      seed: 31,
      businesses: 1500,
      now: MORNING,
      frozenClock: true,
      rateLimit: 200,
      realistic: true,
    });
    watched = sampleTaxIds(emulator, 60);
    await seedList(emulator, { name: "realistic", createdAt: "2024-01-15", taxIds: watched });
    t = await createTestDatabase();
    const result = await syncAt(t.db.sql, emulatorConfig(emulator), emulator);
    expect(result.error).toBeUndefined();
  }, 240_000);
  afterAll(async () => {
    await t?.drop();
    await emulator?.close();
  });

  it("reads and attributes every file, shared ones included, and orders every day's values", async () => {
    const files = await t.db.sql<
      { path: string; parse_status: string; parse_error: string | null; changes: number }[]
    >`
      select path, parse_status, parse_error, cardinality(change_ids)::int as changes
      from regwatch.change_files where status = 'fetched'`;
    expect(files.length).toBeGreaterThan(10);
    expect(files.filter((f) => f.parse_status !== "parsed")).toEqual([]);
    expect(files.some((f) => f.path.endsWith("/changes.json") && f.changes > 1)).toBe(true);
    const [order] = await t.db.sql<{ ambiguous: number; second: number }[]>`
      select count(*) filter (where order_ambiguous or file_order_ambiguous)::int as ambiguous,
             count(*) filter (where day_order > 1)::int as second
      from regwatch.change_values`;
    expect(order).toEqual({ ambiguous: 0, second: expect.any(Number) });
    expect(order!.second).toBeGreaterThan(0);
  });

  it("says each business holds what its current record shows", async () => {
    const records = new Map(
      emulator.sampleBusinesses({ limit: 100_000 }).map((r) => [String(r.tax_id).slice(0, 8), r]),
    );
    const known = await t.db.sql<{ tax_id: string; heading: string }[]>`
      select distinct tax_id, heading from regwatch.change_values
      where change_date <= ${LAST_COMPLETE} order by tax_id, heading`;
    expect(known.length).toBeGreaterThan(20);
    let compared = 0;
    for (const { tax_id, heading } of known) {
      const field = HEADING_FIELDS[heading];
      const record = records.get(tax_id);
      if (!field || !record) continue;
      const [row] = await t.db.sql<{ profile: unknown; as_of: Record<string, unknown> }[]>`
        select p.headings -> ${heading} -> 'value' as profile, regwatch.business_as_of(${tax_id}, ${LAST_COMPLETE}) as as_of
        from regwatch.business_profiles p where p.tax_id = ${tax_id}`;
      const current = record[field] ?? null;
      expect(row!.profile, `${tax_id} ${heading}`).toEqual(current);
      expect(row!.as_of[heading], `${tax_id} ${heading}`).toEqual(current);
      compared++;
    }
    expect(compared).toBeGreaterThan(20);
  });
});
