import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nestedTextArrayLiteral, textArrayLiteral } from "../../src/db/array-literal.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.drop();
});

async function readBack(values: string[]): Promise<string[]> {
  const [row] = await t.db.sql<{ a: string[] }[]>`select ${textArrayLiteral(values)}::text[] as a`;
  return row!.a;
}

/** Each inner literal cast to text[] as the window write does, row by row. */
async function readBackNested(arrays: string[][]): Promise<string[][]> {
  const rows = await t.db.sql<{ a: string[] }[]>`
    select u.h::text[] as a from unnest(${nestedTextArrayLiteral(arrays)}::text[]) with ordinality as u(h, n)
    order by u.n`;
  return rows.map((r) => r.a);
}

describe("text array literals (the window write's columns)", () => {
  it("read back exactly the strings given, awkward ones included", async () => {
    const awkward = [
      "",
      "NULL",
      "null",
      " padded ",
      "a,b",
      '"quoted"',
      "back\\slash",
      "{braces}",
      "tab\there",
      "line\nbreak",
      "ő ű",
      "https://files.example/2024-01-02/companies/12345678_1.json",
    ];
    expect(await readBack(awkward)).toEqual(awkward);
    expect(await readBack([])).toEqual([]);
  });

  it("read back any strings (property)", async () => {
    const text = fc.string({ unit: "binary", maxLength: 20 }).filter((s) => !s.includes("\u0000"));
    await fc.assert(
      fc.asyncProperty(fc.array(text, { maxLength: 8 }), async (values) => {
        expect(await readBack(values)).toEqual(values);
      }),
      { numRuns: 200, seed: 16 },
    );
  });

  it("nested: heading-like words take the unquoted path and read back, as do words Postgres would take for NULL", async () => {
    const headings = [["long_name", "bank_accounts"], [], ["status"], ["NULL", "null", "Null"], ["seat_2"]];
    expect(await readBackNested(headings)).toEqual(headings);
    expect(await readBackNested([])).toEqual([]);
  });

  it("nested: read back any arrays of strings (property)", async () => {
    const word = fc.constantFrom("long_name", "status", "NULL", "nulls", "a1");
    const text = fc.oneof(
      word,
      fc.string({ unit: "binary", maxLength: 12 }).filter((s) => !s.includes("\u0000")),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(text, { maxLength: 4 }), { maxLength: 6 }), async (arrays) => {
        expect(await readBackNested(arrays)).toEqual(arrays);
      }),
      { numRuns: 200, seed: 23 },
    );
  });
});
