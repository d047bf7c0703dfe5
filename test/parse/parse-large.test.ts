/**
 * Bodies above PARSE_MAX_BYTES are parsed from the database a page of elements at a time, with
 * the same element rules as the whole-body path, keeping only the entries of the file's own
 * businesses; a broken element fails that file alone; a body kept as bytes, or of a shape no
 * extracting parser knows, stays failed for its size.
 * (The stored size is set above the bound; the bodies themselves are built by the database.)
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PARSE_MAX_BYTES, parseStoredFiles } from "../../src/parse/parse-files.ts";
import { EXTRACTION_PAGE } from "../../src/parse/parse-large.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.drop();
});
beforeEach(async () => {
  await t.db.sql`truncate regwatch.change_files, regwatch.change_values, regwatch.changes cascade`;
});

const BIG = PARSE_MAX_BYTES + 1;
const ENTRIES = EXTRACTION_PAGE * 3 + 17;

/** A fetched file whose `changes` has ENTRIES elements (built by Postgres), with one change row listing `headings`. */
async function bigFile(path: string, element: string, headings: string[], extra = "'{}'::jsonb") {
  await t.db.sql.unsafe(`
    insert into regwatch.change_files (path, status, size_bytes, content_type, body_json)
    select '${path}', 'fetched', ${BIG}, 'application/json',
           jsonb_build_object('tax_id', '12345678', 'changes',
             (select jsonb_agg(${element} order by g) from generate_series(1, ${ENTRIES}) g)) || ${extra}`);
  await t.db.sql`
    with c as (
      insert into regwatch.changes (tax_id, change_date, chapter, path, raw, changed_headings)
      values ('12345678', '2024-03-08', 'c', ${path}, '{}', ${headings}::text[])
      returning id, path, change_date
    )
    update regwatch.change_files f set change_ids = array[c.id], newest_change = c.change_date
    from c where f.path = c.path`;
}

async function file(path: string) {
  const [row] = await t.db.sql<{ parse_status: string; parser: string | null; parse_error: string | null }[]>`
    select parse_status, parser, parse_error from regwatch.change_files where path = ${path}`;
  return row!;
}

describe("parsing bodies too large to load whole", () => {
  it("reads them in pages, keeps only its own business's entries and nets each heading's chain", async () => {
    // Odd g are another business's; each heading h(g % 10) of ours chains g - 10 → g, g → g + 10, …
    await bigFile(
      "/big.json",
      `jsonb_build_object('tax_id', case when g % 2 = 0 then '12345678' else '87654321' end,
                          'heading', 'h' || (g % 10), 'old_value', g - 10, 'new_value', g)`,
      ["h0", "h2", "h4", "h6", "h8"],
    );
    const report = await parseStoredFiles(t.db.sql);
    expect(report).toMatchObject({ files: 1, parsed: 1, failed: 0, values: 5 });
    expect(await file("/big.json")).toEqual({
      parse_status: "parsed",
      parser: "changes-json-v1",
      parse_error: null,
    });
    const values = await t.db.sql<{ heading: string; old_value: number; new_value: number }[]>`
      select heading, old_value, new_value from regwatch.change_values where path = '/big.json' order by heading`;
    const expected = [0, 2, 4, 6, 8].map((h) => {
      const gs = Array.from({ length: ENTRIES }, (_, i) => i + 1).filter((g) => g % 10 === h);
      return { heading: `h${h}`, old_value: Math.min(...gs) - 10, new_value: Math.max(...gs) };
    });
    expect(values).toEqual(expected);
  });

  it("fails a file with a broken element alone, naming it, and parses the others", async () => {
    await bigFile(
      "/broken.json",
      `case when g = ${ENTRIES - 1} then jsonb_build_object('heading', '', 'new_value', 1) else jsonb_build_object('heading', 'a', 'new_value', g) end`,
      ["a"],
    );
    await bigFile("/fine.json", `jsonb_build_object('heading', 'b', 'old_value', g - 1, 'new_value', g)`, [
      "b",
    ]);
    const report = await parseStoredFiles(t.db.sql);
    expect(report).toMatchObject({ files: 2, parsed: 1, failed: 1 });
    expect(await file("/broken.json")).toEqual({
      parse_status: "failed",
      parser: "changes-json-v1",
      parse_error: `changes[${ENTRIES - 2}].heading is not a non-empty string`,
    });
    expect((await file("/fine.json")).parse_status).toBe("parsed");
  });

  it("leaves a large body of another shape, or kept as bytes, failed for its size", async () => {
    await bigFile("/other.json", `jsonb_build_object('field', g)`, ["field"]);
    await t.db.sql`
      insert into regwatch.change_files (path, status, size_bytes, content_type, body_bytes)
      values ('/bytes.bin', 'fetched', ${BIG}, 'application/octet-stream', '\\x00ff')`;
    const report = await parseStoredFiles(t.db.sql);
    expect(report).toMatchObject({ files: 2, failed: 2 });
    for (const path of ["/other.json", "/bytes.bin"]) {
      const row = await file(path);
      expect(row.parse_status).toBe("failed");
      expect(row.parse_error).toContain("larger than the parser reads whole");
    }
  });
});
