import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mergeProfiles } from "../../src/db/business-profiles.ts";
import { factsFromChanges, factsFromOperator, factsFromRecord } from "../../src/parse/profile-facts.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.drop();
});

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
    const change = (day: string, heading: string, value: unknown, id: number) => ({
      taxId: "11111111",
      changeDate: day,
      changeId: id,
      heading,
      newValue: value,
    });
    await mergeProfiles(
      t.db.sql,
      factsFromChanges([
        change("2024-03-05", "long_name", "Béta Kft.", 2),
        change("2024-03-05", "status", 2, 2),
      ]),
    );
    await mergeProfiles(
      t.db.sql,
      factsFromChanges([
        change("2024-02-01", "long_name", "Régi Kft.", 1),
        change("2024-02-01", "address", "Old 1", 1),
      ]),
    );
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
    await mergeProfiles(
      t.db.sql,
      factsFromChanges([
        { taxId: "22222222", changeDate: "2024-03-09", changeId: 5, heading: "short_name", newValue: "NBH" },
      ]),
    );
    expect((await profile("22222222")).name).toBe("Named By Hand Bt.");
  });
});
