import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { factsFromOperator, factsFromRecord } from "../../src/parse/profile-facts.ts";
import { mergeProfiles, rebuildChangeFacts } from "../../src/parse/sql/business-profiles.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.drop();
});

let nextId = 1;
/** Stores change values as the parse step would, then rebuilds the business's change facts. */
async function changeValues(
  taxId: string,
  values: { day: string; heading: string; value: unknown }[],
  lastComplete = "2024-03-09",
) {
  for (const v of values) {
    await t.db.sql`
      insert into regwatch.change_values (change_id, heading, tax_id, change_date, old_value, new_value, path, day_order)
      values (${nextId++}, ${v.heading}, ${taxId}, ${v.day}, null, ${t.db.sql.json(v.value as never)}, 'p', 1)`;
  }
  await t.db.sql.begin((tx) => rebuildChangeFacts(tx, [taxId], lastComplete, "Europe/Budapest"));
}

async function profile(taxId: string) {
  const [row] = await t.db.sql`
    select name, to_char(name_as_of, 'YYYY-MM-DD') as name_as_of, name_source, status_code, seat, type,
           registration_number, headings, baseline, to_char(baseline_as_of, 'YYYY-MM-DD') as baseline_as_of
    from regwatch.business_profiles where tax_id = ${taxId}`;
  return row!;
}

describe("business profiles", () => {
  it("takes a search record as baseline and its fields as headings", async () => {
    const record = {
      tax_id: "11111111",
      type: "companies",
      full_name: "Alfa Kereskedelmi Kft.",
      short_name: "Alfa Kft.",
      status_code: 1,
      address: "1011 Budapest, Fő utca 1.",
      registration_number: "01-09-123456",
    };
    await mergeProfiles(t.db.sql, [factsFromRecord("11111111", record, "2024-03-01")]);
    expect(await profile("11111111")).toMatchObject({
      name: "Alfa Kereskedelmi Kft.",
      name_as_of: "2024-03-01",
      name_source: "search",
      status_code: 1,
      seat: "1011 Budapest, Fő utca 1.",
      type: "companies",
      registration_number: "01-09-123456",
      baseline: record,
      baseline_as_of: "2024-03-01",
    });
  });

  it("lets a newer change win and never lets an older one overwrite it", async () => {
    await changeValues("11111111", [
      { day: "2024-03-05", heading: "long_name", value: "Béta Kft." },
      { day: "2024-03-05", heading: "status", value: 2 },
    ]);
    await changeValues("11111111", [
      { day: "2024-02-01", heading: "long_name", value: "Régi Kft." },
      { day: "2024-02-01", heading: "address", value: "Old 1" },
    ]);
    const p = await profile("11111111");
    expect(p).toMatchObject({
      name: "Béta Kft.",
      name_as_of: "2024-03-05",
      name_source: "change_file",
      status_code: 2,
    });
    // The search record read on 03-01 is newer than the change of 02-01.
    expect(p.seat).toBe("1011 Budapest, Fő utca 1.");
    expect(p.headings.address).toEqual({
      value: "1011 Budapest, Fő utca 1.",
      as_of: "2024-03-01",
      source: "search",
    });
    // A later search record does not replace the baseline.
    await mergeProfiles(t.db.sql, [factsFromRecord("11111111", { full_name: "Gamma Kft." }, "2024-03-08")]);
    expect(await profile("11111111")).toMatchObject({ name: "Gamma Kft.", baseline_as_of: "2024-03-01" });
  });

  it("takes an operator's name for a business nothing else names", async () => {
    await mergeProfiles(t.db.sql, [factsFromOperator("22222222", "Named By Hand Bt.", "2024-03-02")]);
    expect(await profile("22222222")).toMatchObject({ name: "Named By Hand Bt.", name_source: "operator" });
    // A short name alone does not displace a full one.
    await changeValues("22222222", [{ day: "2024-03-09", heading: "short_name", value: "NBH" }]);
    expect((await profile("22222222")).name).toBe("Named By Hand Bt.");
  });

  it("never takes a value dated after the last complete day, and drops one it took before", async () => {
    await changeValues("33333333", [{ day: "2024-03-01", heading: "long_name", value: "Real Kft." }]);
    // As an older release stored it: a far-future value pinned to the profile.
    await t.db.sql`
      update regwatch.business_profiles
      set headings = headings || '{"long_name": {"value": "Future Kft.", "as_of": "2999-01-01", "source": "change_file"}}'
      where tax_id = '33333333'`;
    await changeValues("33333333", [{ day: "2999-01-01", heading: "long_name", value: "Future Kft." }]);
    expect(await profile("33333333")).toMatchObject({ name: "Real Kft.", name_as_of: "2024-03-01" });
    await changeValues("33333333", [{ day: "2024-03-08", heading: "long_name", value: "Later Real Kft." }]);
    expect(await profile("33333333")).toMatchObject({ name: "Later Real Kft.", name_as_of: "2024-03-08" });
  });

  it("dates a search record by the day it was read in the registry's zone, not UTC's", async () => {
    // 23:30 UTC on 9 March is 00:30 on the 10th in Budapest, the registry's zone.
    await t.db.sql`
      insert into regwatch.businesses (tax_id, full_name, record, fetched_at)
      values ('44444444', 'Read After Midnight Kft.', '{"full_name": "Read After Midnight Kft."}',
              '2024-03-09T23:30:00Z')`;
    await changeValues("44444444", [{ day: "2024-03-01", heading: "status", value: 1 }]);
    const { headings } = await profile("44444444");
    expect(headings.long_name).toMatchObject({ value: "Read After Midnight Kft.", as_of: "2024-03-10" });
  });
});
