/**
 * A change file can be pointed to by more than one change, and the second may arrive after the
 * file was fetched and parsed (another list's window, a later day): it must get the file's values
 * as well, at the next parse, without a new request for the file.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChangedItem } from "../../src/api/watch-schemas.ts";
import type { Sql } from "../../src/db/connect.ts";
import { parseStoredFiles } from "../../src/parse/parse-files.ts";
import { saveFileOutcome } from "../../src/sync/sql/files.ts";
import { writeWindow } from "../../src/sync/sql/window.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

const PATH = "https://files.example/2024-03-05/companies/10000001.json";
const WEEK = { start: "2024-03-04", end: "2024-03-10" };

function write(sql: Sql, listKey: string, chapter: string) {
  const item: ChangedItem = {
    change: "2024-03-05",
    tax_id: "10000001",
    chapter,
    changed_headings: ["long_name"],
    path: PATH,
  };
  return writeWindow(sql, {
    listKey,
    runId: null,
    requested: WEEK,
    covered: WEEK,
    items: [{ item, raw: { ...item } }],
    invalid: [],
  });
}

describe("a parsed file that gains a change", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("is parsed again at the next parse, and every change pointing to it has its values", async () => {
    const sql = t.db.sql;
    expect(await write(sql, "a", "1")).toEqual({ changes: 1, newFiles: 1 });
    const body = {
      tax_id: "10000001",
      changes: [{ heading: "long_name", old_value: "Old Kft.", new_value: "New Kft." }],
    };
    const text = JSON.stringify(body);
    await saveFileOutcome(sql, {
      path: PATH,
      status: "fetched",
      httpStatus: 200,
      contentType: "application/json",
      sha256: "0".repeat(64),
      size: text.length,
      jsonText: text,
      bytes: null,
    });
    expect(await parseStoredFiles(sql)).toMatchObject({ files: 1, parsed: 1 });

    // Another list reports a second change (another chapter) with the same file.
    expect(await write(sql, "b", "2")).toEqual({ changes: 1, newFiles: 0, metStored: true });
    const [file] =
      await sql`select status, parse_status, cardinality(change_ids)::int as n from regwatch.change_files`;
    expect(file).toEqual({ status: "fetched", parse_status: null, n: 2 });

    expect(await parseStoredFiles(sql)).toMatchObject({ files: 1, parsed: 1 });
    const values = await sql<{ chapter: string; heading: string; new_value: string }[]>`
      select c.chapter, v.heading, v.new_value
      from regwatch.change_values v join regwatch.changes c on c.id = v.change_id
      order by c.chapter`;
    expect(values).toEqual([
      { chapter: "1", heading: "long_name", new_value: "New Kft." },
      { chapter: "2", heading: "long_name", new_value: "New Kft." },
    ]);
  });
});
