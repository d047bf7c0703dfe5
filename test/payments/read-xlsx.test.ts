/**
 * The workbook reader (xlsxToCsv) on workbooks written part by part: accented names whose
 * characters fall on the boundaries of inflated chunks come back whole (exceljs's reader turned
 * such a character into two U+FFFD), and each kind of cell reads as the CSV line says.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { XlsxRefusedError, xlsxToCsv } from "../../src/formats/read/xlsx.ts";
import { workbookParts, writeStoredZip } from "../helpers/stored-zip.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "regwatch-read-xlsx-"));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const escaped = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");
const sst = (items: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${items.length}" uniqueCount="${items.length}">${items.map((s) => `<si><t>${escaped(s)}</t></si>`).join("")}</sst>`;

/** A workbook of one column: `names` as shared strings, one per row, the sheet and table deflated. */
async function namesWorkbook(file: string, names: string[]): Promise<void> {
  const parts = workbookParts(sst(names), 0);
  const rows = names.map((_, i) => `<row r="${i + 1}"><c r="A${i + 1}" t="s"><v>${i}</v></c></row>`);
  parts["xl/worksheets/sheet1.xml"] =
    `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows.join("")}</sheetData></worksheet>`;
  await writeStoredZip(file, parts, { deflate: true });
}

async function csvOf(file: string): Promise<string[]> {
  const csv = `${file}.csv`;
  await xlsxToCsv(file, csv);
  return (await readFile(csv, "utf8")).split("\n").slice(0, -1);
}

describe("reading an .xlsx batch", () => {
  it("gives back every accented name whole, wherever the inflated chunks split it", async () => {
    // Two- and three-byte characters throughout, in names of varying length, so that among the
    // hundreds of chunk boundaries of the table many fall inside a character.
    const names = Array.from(
      { length: 30_000 },
      (_, i) => `Árvíztűrő tükörfúrógép ${i}${"ő".repeat(i % 7)} Beszállító – Kft. „${i % 13}”`,
    );
    const file = path.join(dir, "accents.xlsx");
    await namesWorkbook(file, names);
    const lines = await csvOf(file);
    expect(lines).toHaveLength(names.length);
    const wrong = lines.filter((line, i) => line !== `"${names[i]}"`);
    expect(wrong.slice(0, 3)).toEqual([]);
    expect(lines.join("")).not.toContain("\uFFFD");
  }, 60_000);

  it("reads inline strings, numbers as Excel shows them, booleans, errors, formulas' results and gaps", async () => {
    const parts = workbookParts(sst(["név", "rich"]), 0);
    parts["xl/worksheets/sheet1.xml"] =
      `<?xml version="1.0" encoding="UTF-8"?><x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:sheetData>` +
      `<x:row r="1"><x:c r="A1" t="s"><x:v>0</x:v></x:c><x:c r="C1" t="inlineStr"><x:is><x:r><x:t>Ő "egy"</x:t></x:r><x:r><x:t xml:space="preserve"> ketto</x:t></x:r><x:rPh><x:t>fon</x:t></x:rPh></x:is></x:c></x:row>` +
      `<x:row r="3"><x:c r="A3"><x:v>1234.5</x:v></x:c><x:c r="B3"><x:v>1.1000000000000001</x:v></x:c><x:c r="C3" t="b"><x:v>1</x:v></x:c><x:c r="D3" t="e"><x:v>#N/A</x:v></x:c><x:c r="E3" t="str"><x:f>A1&amp;"x"</x:f><x:v>névx</x:v></x:c><x:c r="F3" s="2"/></x:row>` +
      `</x:sheetData></x:worksheet>`;
    const file = path.join(dir, "kinds.xlsx");
    await writeStoredZip(file, parts);
    expect(await csvOf(file)).toEqual([
      `"név";"";"Ő ""egy"" ketto"`,
      "",
      `"1234.5";"1.1";"true";"#N/A";"névx";""`,
    ]);
  });

  it("refuses a cell longer than a record may be, naming its row", async () => {
    const parts = workbookParts(sst(["a", "x".repeat(70_000)]), 0);
    parts["xl/worksheets/sheet1.xml"] =
      `<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c t="s"><v>0</v></c></row><row r="2"><c t="s"><v>1</v></c></row></sheetData></worksheet>`;
    const file = path.join(dir, "long.xlsx");
    await writeStoredZip(file, parts);
    const refusal = await xlsxToCsv(file, `${file}.csv`).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(XlsxRefusedError);
    expect((refusal as XlsxRefusedError).reason).toBe("longCell");
    expect((refusal as XlsxRefusedError).values.row).toBe(2);
  });

  it("refuses a workbook whose first sheet is missing, and one whose XML defines its own entities", async () => {
    const missing = workbookParts(sst(["a"]), 1);
    delete missing["xl/worksheets/sheet1.xml"];
    const noSheet = path.join(dir, "nosheet.xlsx");
    await writeStoredZip(noSheet, missing);
    await expect(xlsxToCsv(noSheet, `${noSheet}.csv`)).rejects.toMatchObject({ reason: "noSheet" });

    const bomb = workbookParts(
      `<?xml version="1.0"?><!DOCTYPE sst [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>&b;</t></si></sst>`,
      1,
    );
    const entities = path.join(dir, "entities.xlsx");
    await writeStoredZip(entities, bomb);
    await expect(xlsxToCsv(entities, `${entities}.csv`)).rejects.toMatchObject({ reason: "malformed" });
  });
});
