/**
 * Values are attributed, never assumed, against a registry that serves what its document allows:
 * one file per business form and day shared by several businesses, two changes of one business
 * on one day in different chapters (in one shared file or in two files), a heading twice in one
 * file, entries naming no business in a shared file, and the storage order opposite to the order
 * the changes happened in.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AMBIGUOUS_NOTE, feedLines } from "../../src/changes/format.ts";
import { readFeed } from "../../src/changes/sql/change-feed.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import {
  changesAnswer,
  type HostileRegistry,
  json,
  startHostileRegistry,
} from "../helpers/hostile-registry.ts";
import { syncHostile, taxIdOf } from "./helpers.ts";

const DAY = "2024-03-05";
const BEFORE = "2024-03-04";

const taxId = (n: number) => taxIdOf(1, n);
const [T1, T2, T3, T4, T5, T6, T7, T8] = [1, 2, 3, 4, 5, 6, 7, 8].map(taxId) as [
  string,
  string,
  string,
  string,
  string,
  string,
  string,
  string,
];
/** A business nobody here watches, whose entries share the file. */
const OTHER = taxId(9);

const SHARED = `/files/${DAY}/companies/changes.json`;
const entry = (tax: string, chapter: string, heading: string, oldValue: unknown, newValue: unknown) => ({
  tax_id: tax,
  chapter,
  heading,
  old_value: oldValue,
  new_value: newValue,
});

/** The shared file of the day, entries in no particular order (not the order they happened in). */
const SHARED_BODY = {
  date: DAY,
  business_form: "companies",
  changes: [
    entry(T3, "3", "long_name", "T3 B", "T3 C"),
    entry(T4, "3", "long_name", "T4 Q", "T4 R"),
    entry(T1, "2", "long_name", "Alfa Kft.", "Alfa Új Kft."),
    entry(OTHER, "2", "long_name", "Somebody Else Kft.", "Somebody Else Zrt."),
    entry(T2, "2", "address", "1011 Budapest", "1012 Budapest"),
    entry(T4, "9", "long_name", "T4 P", "T4 Q"),
    entry(T2, "2", "long_name", "Béta Kft.", "Béta Új Kft."),
    entry(T6, "1", "long_name", "T6 X", "T6 Y"),
    entry(T6, "4", "long_name", "T6 P", "T6 Q"),
  ],
};

const FILES: Record<string, unknown> = {
  [SHARED]: SHARED_BODY,
  // The one-business shape: the file's tax_id and chapter apply to its entries.
  "/files/t3-9.json": {
    tax_id: T3,
    chapter: "9",
    changes: [{ heading: "long_name", old_value: "T3 A", new_value: "T3 B" }],
  },
  // A heading given twice, the later step first.
  "/files/t5.json": {
    tax_id: T5,
    chapter: "1",
    changes: [
      { heading: "long_name", old_value: "T5 B", new_value: "T5 C" },
      { heading: "long_name", old_value: "T5 A", new_value: "T5 B" },
    ],
  },
  // Shared by two businesses, and no entry says whose it is.
  "/files/nameless.json": { changes: [{ heading: "long_name", old_value: "N A", new_value: "N B" }] },
};

describe("values from files shared by businesses, chapters and steps", () => {
  let registry: HostileRegistry;
  let t: TestDatabase;

  beforeAll(async () => {
    t = await createTestDatabase();
    registry = await startHostileRegistry({
      lists: [{ list_key: "wl_values", list_name: "values", created_at: "2024-03-01" }],
      changes: (q) => {
        if (!(q.from <= DAY && DAY <= q.to)) return changesAnswer(q.from, q.to, []);
        const at = (path: string) => `${registry.url}${path}`;
        const item = (tax: string, chapter: string, headings: string[], path: string) => ({
          change: DAY,
          tax_id: tax,
          chapter,
          changed_headings: headings,
          path: at(path),
        });
        // Storage follows this order: each later step of a business is stored first.
        return changesAnswer(q.from, q.to, [
          item(T3, "3", ["long_name"], SHARED),
          item(T3, "9", ["long_name"], "/files/t3-9.json"),
          item(T4, "3", ["long_name"], SHARED),
          item(T4, "9", ["long_name"], SHARED),
          item(T1, "2", ["long_name"], SHARED),
          item(T2, "2", ["long_name", "address"], SHARED),
          item(T5, "1", ["long_name"], "/files/t5.json"),
          item(T6, "1", ["long_name"], SHARED),
          item(T6, "4", ["long_name"], SHARED),
          item(T7, "1", ["long_name"], "/files/nameless.json"),
          item(T8, "1", ["long_name"], "/files/nameless.json"),
        ]);
      },
      file: (path) => (path in FILES ? json(FILES[path]) : json({ error: "no such file" }, 404)),
    });
    const result = await syncHostile(t.db.sql, registry);
    expect(result.error).toBeUndefined();
  });
  afterAll(async () => {
    await t?.drop();
    await registry?.close();
  });

  const values = (tax: string) =>
    t.db.sql<
      {
        chapter: string;
        heading: string;
        old_value: unknown;
        new_value: unknown;
        day_order: number | null;
        order_ambiguous: boolean;
      }[]
    >`
      select c.chapter, v.heading, v.old_value, v.new_value, v.day_order, v.order_ambiguous
      from regwatch.change_values v join regwatch.changes c on c.id = v.change_id
      where v.tax_id = ${tax} order by c.chapter, v.heading`;
  const asOf = async (tax: string, day: string) => {
    const [row] = await t.db.sql<
      { v: Record<string, unknown> }[]
    >`select regwatch.business_as_of(${tax}, ${day}) as v`;
    return row!.v;
  };
  const profile = async (tax: string) => {
    const [row] = await t.db.sql<
      { name: string | null; headings: Record<string, Record<string, unknown>> }[]
    >`
      select name, headings from regwatch.business_profiles where tax_id = ${tax}`;
    return row;
  };

  it("gives each business of a shared file its own entries only, for the headings its change lists", async () => {
    expect(await values(T1)).toEqual([
      {
        chapter: "2",
        heading: "long_name",
        old_value: "Alfa Kft.",
        new_value: "Alfa Új Kft.",
        day_order: 1,
        order_ambiguous: false,
      },
    ]);
    expect((await values(T2)).map((v) => [v.heading, v.old_value, v.new_value])).toEqual([
      ["address", "1011 Budapest", "1012 Budapest"],
      ["long_name", "Béta Kft.", "Béta Új Kft."],
    ]);
    expect((await profile(T1))?.name).toBe("Alfa Új Kft.");
    expect((await profile(T2))?.name).toBe("Béta Új Kft.");
    const [shared] = await t.db
      .sql`select parse_status, parse_error from regwatch.change_files where path like ${`%${SHARED}`}`;
    expect(shared).toEqual({ parse_status: "parsed", parse_error: null });
  });

  it("orders two chapters' changes of one day by their values, across two files and within one", async () => {
    for (const [tax, first, middle, last] of [
      [T3, "T3 A", "T3 B", "T3 C"],
      [T4, "T4 P", "T4 Q", "T4 R"],
    ] as const) {
      expect(await values(tax)).toEqual([
        {
          chapter: "3",
          heading: "long_name",
          old_value: middle,
          new_value: last,
          day_order: 2,
          order_ambiguous: false,
        },
        {
          chapter: "9",
          heading: "long_name",
          old_value: first,
          new_value: middle,
          day_order: 1,
          order_ambiguous: false,
        },
      ]);
      expect((await asOf(tax, DAY)).long_name).toBe(last);
      expect((await asOf(tax, BEFORE)).long_name).toBe(first);
      expect((await profile(tax))?.headings.long_name).toEqual({
        value: last,
        as_of: DAY,
        source: "change_file",
      });
      expect((await profile(tax))?.name).toBe(last);
    }
  });

  it("nets a heading given twice in one file to its first old and last new value", async () => {
    expect(await values(T5)).toEqual([
      {
        chapter: "1",
        heading: "long_name",
        old_value: "T5 A",
        new_value: "T5 C",
        day_order: 1,
        order_ambiguous: false,
      },
    ]);
    expect((await asOf(T5, DAY)).long_name).toBe("T5 C");
    expect((await asOf(T5, BEFORE)).long_name).toBe("T5 A");
  });

  it("says the order is unknown where no chain decides it, instead of choosing", async () => {
    const rows = await values(T6);
    expect(rows.map((r) => [r.day_order, r.order_ambiguous])).toEqual([
      [null, true],
      [null, true],
    ]);
    expect(await asOf(T6, DAY)).toMatchObject({ long_name: null, _order_ambiguous: ["long_name"] });
    expect(await asOf(T6, BEFORE)).toMatchObject({ long_name: null, _order_ambiguous: ["long_name"] });
    expect((await asOf(T1, DAY))._order_ambiguous).toBeUndefined();
    const p = await profile(T6);
    expect(p?.headings.long_name).toMatchObject({ value: null, as_of: DAY, order_ambiguous: true });
    expect(p?.headings.long_name?.candidates).toEqual(expect.arrayContaining(["T6 Y", "T6 Q"]));
    expect(p?.name).toBeNull();
    const view = await t.db.sql`select order_ambiguous from regwatch.v_heading_changes where tax_id = ${T6}`;
    expect(view.map((r) => r.order_ambiguous)).toEqual([true, true]);
    const feed = await readFeed(t.db.sql, { since: DAY, until: null, lists: [], headings: [], taxId: T6 });
    const lines = feedLines(feed, { shorten: true }).trim().split("\n");
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).toContain(AMBIGUOUS_NOTE);
  });

  it("marks a file it cannot attribute unattributed, with the reason, and takes no value from it", async () => {
    const [file] = await t.db.sql<{ parse_status: string; parse_error: string }[]>`
      select parse_status, parse_error from regwatch.change_files where path like '%/nameless.json'`;
    expect(file?.parse_status).toBe("unattributed");
    expect(file?.parse_error).toContain(
      "1 entry names no business while the changes pointing at the file are of 2 businesses",
    );
    expect(await values(T7)).toEqual([]);
    expect(await values(T8)).toEqual([]);
    const [other] = await t.db
      .sql`select count(*)::int as n from regwatch.change_values where tax_id = ${OTHER}`;
    expect(other).toEqual({ n: 0 });
  });
});
