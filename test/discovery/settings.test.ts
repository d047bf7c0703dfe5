/**
 * Which changes settings a run uses: a variable set in the environment, else what the description
 * says, else the default; one message per contradiction between a set variable and the
 * description. And the stored reading: every outcome round-trips through registry_descriptions.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compareWithSettings } from "../../src/api/description.ts";
import { loadConfig } from "../../src/config.ts";
import { chooseSettings, explicitSettings } from "../../src/sync/registry-description.ts";
import { loadDescription, saveDescription } from "../../src/sync/sql/descriptions.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

const found = { from: "date_from", to: "date_to", page: "page_no", dateFormat: "date", endInclusive: false };

describe("the changes settings of a run", () => {
  it("takes the description's values where the environment sets nothing", () => {
    const config = loadConfig({});
    expect(config.explicit.size).toBe(0);
    expect(chooseSettings(config, found)).toEqual({
      changesFromParam: "date_from",
      changesToParam: "date_to",
      changesPageParam: "page_no",
      changesEndInclusive: false,
    });
    expect(chooseSettings(config, undefined)).toEqual({
      changesFromParam: "start_date",
      changesToParam: "end_date",
      changesPageParam: "page",
      changesEndInclusive: true,
    });
  });

  it("keeps what the environment sets, even when it equals a default, and names each contradiction", () => {
    const config = loadConfig({
      REGWATCH_CHANGES_FROM_PARAM: "start_date",
      REGWATCH_CHANGES_PAGE_PARAM: "page_no",
      REGWATCH_CHANGES_END_INCLUSIVE: "true",
      REGWATCH_CHANGES_TO_PARAM: " ",
    });
    expect([...config.explicit].sort()).toEqual([
      "REGWATCH_CHANGES_END_INCLUSIVE",
      "REGWATCH_CHANGES_FROM_PARAM",
      "REGWATCH_CHANGES_PAGE_PARAM",
    ]);
    expect(chooseSettings(config, found)).toEqual({
      changesFromParam: "start_date",
      changesToParam: "date_to",
      changesPageParam: "page_no",
      changesEndInclusive: true,
    });
    expect(compareWithSettings(found, explicitSettings(config))).toEqual([
      `REGWATCH_CHANGES_FROM_PARAM is "start_date" but the registry's description names the changes parameter "date_from"; the environment's value is used`,
      "REGWATCH_CHANGES_END_INCLUSIVE is true but the registry's description says the interval's end is exclusive; the environment's value is used",
    ]);
    // A description silent on a point contradicts nothing.
    expect(compareWithSettings({ from: "start_date", to: "end_date" }, explicitSettings(config))).toEqual([]);
  });
});

describe("the stored reading", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("keeps one row per watch address, replaced by each reading", async () => {
    const sql = t.db.sql;
    expect(await loadDescription(sql)).toBeUndefined();
    const a = "https://a.example/v2";
    await saveDescription(
      sql,
      { status: "unreadable", tried: [`${a}/docs`], problem: "the page references no description" },
      { watchUrl: a, readOn: "2024-03-10" },
    );
    expect(await loadDescription(sql, a)).toMatchObject({
      watchUrl: a,
      status: "unreadable",
      readOn: "2024-03-10",
      tried: [`${a}/docs`],
      problem: "the page references no description",
    });
    await saveDescription(
      sql,
      {
        status: "found",
        url: `${a}/openapi.json`,
        sha256: "ab".repeat(32),
        readOn: "2024-03-11",
        params: found,
      },
      { watchUrl: a, readOn: "2024-03-11" },
    );
    await saveDescription(
      sql,
      { status: "absent", tried: [], problem: "none" },
      { watchUrl: "https://b.example/v2", readOn: "2024-03-09" },
    );
    expect(await loadDescription(sql, a)).toEqual({
      watchUrl: a,
      status: "found",
      url: `${a}/openapi.json`,
      sha256: "ab".repeat(32),
      readOn: "2024-03-11",
      readAt: expect.any(Date),
      params: found,
    });
    const [{ n }] = (await sql`select count(*)::int as n from regwatch.registry_descriptions`) as [
      { n: number },
    ];
    expect(n).toBe(2);
    // Without an address: the one read last.
    expect(await loadDescription(sql)).toMatchObject({ watchUrl: "https://b.example/v2", status: "absent" });
  });
});
