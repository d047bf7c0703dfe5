import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { textArrayLiteral } from "../../src/db/array-literal.ts";
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
});
