/**
 * Excel leaves an empty last cell out of its row (issue 49, point 3): a workbook whose note column
 * is empty on a row, and a CSV exported the same way, are read with that cell empty, not refused
 * as "3 field(s), but the header names 4 columns". The built CLI on a real database.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { workbookParts, writeStoredZip } from "../helpers/stored-zip.ts";

const ACCOUNT = "11773016-11111018-00000000";
const TAX_ID = "10000001";
let t: TestDatabase;
let dir: string;

beforeAll(async () => {
  t = await createTestDatabase();
  dir = await mkdtemp(path.join(tmpdir(), "regwatch-short-rows-"));
});
afterAll(async () => {
  await t?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const inline = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;

async function checked(
  file: string,
): Promise<{ code: number | null; rows: { line: number; amount: string }[] }> {
  const result = await runCli(["payments", "check", file, "--json"], { DATABASE_URL: t.url });
  expect(result.stderr).not.toMatch(/field\(s\)/);
  expect(result.code, result.stderr).not.toBe(64);
  return { code: result.code, rows: JSON.parse(result.stdout).rows };
}

describe("a row without its empty last cell", () => {
  it("is read from a workbook with that cell empty", async () => {
    const parts = workbookParts("", 0);
    delete parts["xl/sharedStrings.xml"];
    parts["xl/worksheets/sheet1.xml"] =
      `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>` +
      `<row r="1">${inline("A1", "Adószám")}${inline("B1", "Számlaszám")}${inline("C1", "Összeg")}${inline("D1", "Megjegyzés")}</row>` +
      `<row r="2">${inline("A2", TAX_ID)}${inline("B2", ACCOUNT)}<c r="C2"><v>100</v></c></row>` +
      `</sheetData></worksheet>`;
    const file = path.join(dir, "short.xlsx");
    await writeStoredZip(file, parts);
    const { rows } = await checked(file);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ line: 2, amount: "100" });
  });

  it("is read from a CSV with that cell empty, while a wider row is still refused", async () => {
    const file = path.join(dir, "short.csv");
    await writeFile(file, `Adószám;Számlaszám;Összeg;Megjegyzés\n${TAX_ID};${ACCOUNT};100\n`);
    const { rows } = await checked(file);
    expect(rows[0]).toMatchObject({ line: 2, amount: "100" });
    const wide = path.join(dir, "wide.csv");
    await writeFile(wide, `Adószám;Számlaszám;Összeg;Megjegyzés\n${TAX_ID};${ACCOUNT};100;a;b\n`);
    const refused = await runCli(["payments", "check", wide], { DATABASE_URL: t.url });
    expect(refused.code).toBe(64);
    expect(refused.stderr).toContain("line 2: 5 field(s), but the header names 4 columns");
  });
});
