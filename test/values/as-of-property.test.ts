/**
 * Property: for any chained history of a heading (each step's old value is the previous step's
 * new value), with several steps on one day in different chapters, stored in any order, in
 * files of their own or one file shared by the day, business_as_of on every day equals replaying
 * the history: the value after the day's last step, and before the first step its old value.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../../src/dates.ts";
import { parseStoredFiles } from "../../src/parse/parse-files.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

const FIRST_DAY = "2024-03-04";
const DAYS = 4;

interface Step {
  day: string;
  chapter: string;
  oldValue: string;
  newValue: string;
}

const history = fc
  .record({
    states: fc.uniqueArray(fc.string({ maxLength: 5 }), { minLength: 2, maxLength: 9 }),
    offsets: fc.array(fc.nat(DAYS - 1), { minLength: 8, maxLength: 8 }),
    storage: fc.array(fc.nat(), { minLength: 8, maxLength: 8 }),
    shared: fc.boolean(),
  })
  .map(({ states, offsets, storage, shared }) => {
    const days = offsets.slice(0, states.length - 1).sort((a, b) => a - b);
    const steps: Step[] = days.map((offset, i) => ({
      day: addDays(FIRST_DAY, offset),
      chapter: String(i + 1),
      oldValue: states[i]!,
      newValue: states[i + 1]!,
    }));
    // Stored in an order the data does not tell: by a random key, not by when it happened.
    const stored = steps.map((step, i) => ({ step, key: storage[i]! })).sort((a, b) => a.key - b.key);
    return { steps, stored: stored.map((s) => s.step), shared };
  });

/** What the heading held on `day`, replayed from the history. */
function replay(steps: readonly Step[], day: string): string {
  const done = steps.filter((s) => s.day <= day);
  return done.length > 0 ? done.at(-1)!.newValue : steps[0]!.oldValue;
}

describe("business_as_of over a chained history", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("equals replaying it, whatever the storage order and file layout", async () => {
    const sql = t.db.sql;
    let run = 0;
    await fc.assert(
      fc.asyncProperty(history, async ({ steps, stored, shared }) => {
        run++;
        const taxId = String(30_000_000 + run);
        for (const step of stored) {
          const path = shared ? `/p${run}/${step.day}/shared.json` : `/p${run}/${step.chapter}.json`;
          await sql`
            insert into regwatch.changes (tax_id, change_date, chapter, path, raw, changed_headings)
            values (${taxId}, ${step.day}, ${step.chapter}, ${path}, '{}', '{long_name}')`;
        }
        const files = await sql<{ path: string; ids: number[] }[]>`
          select path, array_agg(id::int order by id) as ids from regwatch.changes where tax_id = ${taxId} group by path`;
        for (const file of files) {
          const entries = stored
            .filter((s) =>
              shared ? file.path.includes(`/${s.day}/`) : file.path.endsWith(`/${s.chapter}.json`),
            )
            .map((s) => ({
              tax_id: taxId,
              chapter: s.chapter,
              heading: "long_name",
              old_value: s.oldValue,
              new_value: s.newValue,
            }));
          await sql`
            insert into regwatch.change_files (path, status, content_type, body_json, change_ids)
            values (${file.path}, 'fetched', 'application/json', ${sql.json({ changes: entries })}, ${file.ids}::bigint[])`;
        }
        await parseStoredFiles(sql, { lastComplete: "2024-03-09" });
        for (let d = -1; d <= DAYS; d++) {
          const day = addDays(FIRST_DAY, d);
          const [row] = await sql<
            { v: Record<string, unknown> }[]
          >`select regwatch.business_as_of(${taxId}, ${day}) as v`;
          expect(row!.v, day).toEqual({ long_name: replay(steps, day) });
        }
        const [profile] = await sql<{ name: string | null }[]>`
          select name from regwatch.business_profiles where tax_id = ${taxId}`;
        // The profile shows the last value as the name (a blank one names nothing).
        const last = replay(steps, "2024-03-09");
        expect(profile?.name ?? null).toBe(last.trim() === "" ? null : last);
      }),
      { numRuns: 40, seed: 24 },
    );
  });
});
