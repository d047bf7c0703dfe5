/**
 * Profiles follow the values: `reparse` rebuilds the profile of every business whose values it
 * rewrites (a value an older release pinned there does not stay), and a change dated after the
 * last complete day (2999-01-01, already stored by an older release) never pins a profile, so a
 * later real change still replaces the name.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import {
  changesAnswer,
  type HostileRegistry,
  json,
  startHostileRegistry,
} from "../helpers/hostile-registry.ts";
import { syncHostile, taxIdOf } from "./helpers.ts";

// Two days after the first sync (MORNING): 10 and 11 March are read.
const LATER = new Date("2024-03-12T08:00:00+01:00");
const REPARSED = taxIdOf(3, 1);
const PINNED = taxIdOf(3, 2);

describe("profiles rebuilt from the values", () => {
  let registry: HostileRegistry;
  let t: TestDatabase;
  /** Changes the registry reports, by day. */
  let reported: { day: string; tax: string; file: string }[] = [];
  const files: Record<string, unknown> = {
    "/files/reparsed.json": {
      tax_id: REPARSED,
      changes: [{ heading: "long_name", old_value: "Old Kft.", new_value: "Right Kft." }],
    },
    "/files/later.json": {
      tax_id: PINNED,
      changes: [{ heading: "long_name", old_value: "Pinned Kft.", new_value: "Later Kft." }],
    },
  };
  const sync = (now?: Date) => syncHostile(t.db.sql, registry, now);
  const profile = async (tax: string) => {
    const [row] = await t.db.sql<{ name: string; name_as_of: string }[]>`
      select name, to_char(name_as_of, 'YYYY-MM-DD') as name_as_of from regwatch.business_profiles where tax_id = ${tax}`;
    return row;
  };

  beforeAll(async () => {
    t = await createTestDatabase();
    registry = await startHostileRegistry({
      lists: [{ list_key: "wl_profiles", list_name: "profiles", created_at: "2024-03-01" }],
      changes: (q) =>
        changesAnswer(
          q.from,
          q.to,
          reported
            .filter((r) => q.from <= r.day && r.day <= q.to)
            .map((r) => ({
              change: r.day,
              tax_id: r.tax,
              chapter: "1",
              changed_headings: ["long_name"],
              path: `${registry.url}${r.file}`,
            })),
        ),
      file: (path) => (path in files ? json(files[path]) : json({ error: "no such file" }, 404)),
    });
  });
  afterAll(async () => {
    await t?.drop();
    await registry?.close();
  });

  it("reparse rebuilds the profile of a business whose values it rewrites", async () => {
    reported = [{ day: "2024-03-05", tax: REPARSED, file: "/files/reparsed.json" }];
    expect((await sync()).error).toBeUndefined();
    expect(await profile(REPARSED)).toEqual({ name: "Right Kft.", name_as_of: "2024-03-05" });
    // As an older release could leave it: a wrong value, dated later than the right one, in the profile.
    await t.db.sql`
      update regwatch.business_profiles
      set headings = headings || '{"long_name": {"value": "Wrong Kft.", "as_of": "2024-03-08", "source": "change_file"}}',
          name = 'Wrong Kft.', name_as_of = '2024-03-08'
      where tax_id = ${REPARSED}`;
    const cli = await runCli(["reparse", "--all"], { DATABASE_URL: t.url });
    expect(cli.code).toBe(0);
    expect(await profile(REPARSED)).toEqual({ name: "Right Kft.", name_as_of: "2024-03-05" });
  });

  it("never lets a change dated after the last complete day pin the profile", async () => {
    // A change dated 2999 that an older release stored, with its file parsed and its value in the profile.
    const future = `${registry.url}/files/future.json`;
    await t.db.sql`
      with c as (
        insert into regwatch.changes (tax_id, change_date, chapter, path, raw, changed_headings)
        values (${PINNED}, '2999-01-01', '1', ${future}, '{}', '{long_name}') returning id
      )
      insert into regwatch.change_files (path, status, content_type, body_json, change_ids, newest_change)
      select ${future}, 'fetched', 'application/json',
             ${t.db.sql.json({ tax_id: PINNED, changes: [{ heading: "long_name", old_value: "Pinned Kft.", new_value: "Future Kft." }] })},
             array[c.id], '2999-01-01'
      from c`;
    await t.db.sql`
      insert into regwatch.business_profiles (tax_id, name, name_as_of, name_source, headings)
      values (${PINNED}, 'Future Kft.', '2999-01-01', 'change_file',
              '{"long_name": {"value": "Future Kft.", "as_of": "2999-01-01", "source": "change_file"}}')`;
    reported = [{ day: "2024-03-11", tax: PINNED, file: "/files/later.json" }];
    const r = await sync(LATER);
    expect(r.error).toBeUndefined();
    expect(await profile(PINNED)).toEqual({ name: "Later Kft.", name_as_of: "2024-03-11" });
    // Parsing the future file itself still gives the profile nothing from it.
    expect((await runCli(["reparse", "--all"], { DATABASE_URL: t.url })).code).toBe(0);
    expect(await profile(PINNED)).toEqual({ name: "Later Kft.", name_as_of: "2024-03-11" });
    const [future2999] = await t.db.sql`
      select new_value from regwatch.change_values where tax_id = ${PINNED} and change_date = '2999-01-01'`;
    expect(future2999).toEqual({ new_value: "Future Kft." });
  });
});
