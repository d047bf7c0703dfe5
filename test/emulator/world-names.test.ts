/**
 * Name search in a world with current records: a name matches the names the records show at the
 * emulator's clock (present full and short names), not the ones the businesses were founded with.
 * A plain world still matches the founding names.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { foldText } from "../../src/emulator/name-search.ts";
import { type Harness, type SearchPage, startHarness } from "./harness.ts";

type Shown = Record<string, unknown> & { tax_id: string; full_name: string; short_name?: string };

let realistic: Harness;
let plain: Harness;
let present: Shown[];
let founding: Shown[];

beforeAll(async () => {
  [realistic, plain] = await Promise.all([startHarness({ realistic: true }), startHarness()]);
  present = realistic.emulator.sampleBusinesses({ type: "companies", limit: 40 }) as Shown[];
  founding = plain.emulator.sampleBusinesses({ type: "companies", limit: 40 }) as Shown[];
});
afterAll(() => Promise.all([realistic.emulator.close(), plain.emulator.close()]));

/** Every hit of a name search (all pages), as shown. */
async function hits(h: Harness, value: string): Promise<Shown[]> {
  const shown: Shown[] = [];
  for (let page = 1; ; page++) {
    const { status, body } = await h.json<SearchPage>(
      "GET",
      `/v1/names?${new URLSearchParams({ value, page: String(page) })}`,
    );
    expect(status).toBe(200);
    shown.push(...(body.results as Shown[]));
    if (!body.has_next) return shown;
  }
}

const taxIdOf = (record: Shown) => String(record.tax_number).slice(0, 8);
const renamed = () =>
  present
    .map((p, k) => ({ now: p, before: founding[k]! }))
    .filter((r) => r.now.full_name !== r.before.full_name);

describe("name search with current records", () => {
  it("finds a renamed company by its present name, and the hit shows that name", async () => {
    const pairs = renamed().slice(0, 5);
    expect(pairs.length).toBe(5);
    for (const { now } of pairs) {
      const found = (await hits(realistic, now.full_name)).filter((r) => taxIdOf(r) === now.tax_id);
      expect(found.map((r) => r.full_name)).toEqual([now.full_name]);
      const short = (await hits(realistic, now.short_name!)).filter((r) => taxIdOf(r) === now.tax_id);
      expect(short.map((r) => r.short_name)).toEqual([now.short_name]);
    }
  });

  it("no longer finds a company by a former name", async () => {
    for (const { now, before } of renamed().slice(0, 5)) {
      const found = await hits(realistic, before.full_name);
      expect(found.filter((r) => taxIdOf(r) === now.tax_id)).toEqual([]);
    }
  });

  it("shows, in every hit, a name the query matches", async () => {
    for (const value of ["kovacs", "szabo kft", "egyesulet"]) {
      const words = foldText(value).split(" ");
      const found = await hits(realistic, value);
      expect(found.length).toBeGreaterThan(0);
      for (const r of found) {
        const names = [r.full_name, r.short_name]
          .filter((n) => typeof n === "string")
          .map((n) => ` ${foldText(n)}`);
        expect(names.some((n) => words.every((w) => n.includes(` ${w}`)))).toBe(true);
      }
    }
  });

  it("follows a rename a test adds, once the day of the rename is loaded", async () => {
    const company = present[0]!;
    const renamedTo = "Zafírkék Próbanév Korlátolt Felelősségű Társaság";
    realistic.emulator.addChange({
      tax_id: company.tax_id,
      change: "2024-03-10",
      chapter: "general",
      values: [{ heading: "long_name", old_value: company.full_name, new_value: renamedTo }],
    });
    const found = await hits(realistic, "zafirkek probanev");
    expect(found.map((r) => [taxIdOf(r), r.full_name])).toEqual([[company.tax_id, renamedTo]]);
    expect((await hits(realistic, company.full_name)).filter((r) => taxIdOf(r) === company.tax_id)).toEqual(
      [],
    );
  });
});

describe("name search in a plain world", () => {
  it("still finds a company by the name it was founded with", async () => {
    for (const record of founding.slice(0, 5)) {
      const found = (await hits(plain, record.full_name)).filter((r) => taxIdOf(r) === record.tax_id);
      expect(found.map((r) => r.full_name)).toEqual([record.full_name]);
    }
  });
});
