import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import ExcelJS from "exceljs";
import { strFromU8, unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { xlsxToCsv } from "../../src/formats/read/xlsx.ts";
import { FILLS, numberFormat, XlsxWriter } from "../../src/formats/write/xlsx-writer.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "regwatch-xlsx-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("XlsxWriter", () => {
  it("writes typed cells, coloured rows, a frozen header and a second sheet", async () => {
    const file = path.join(dir, "out.xlsx");
    const xlsx = new XlsxWriter(file);
    const rows = xlsx.sheet("rows", [
      { header: "text", type: "text" },
      { header: "amount", type: "number" },
      { header: "day", type: "date", numFmt: "yyyy-mm-dd" },
    ]);
    rows.row(["=1+1", { value: -1250.5, numFmt: numberFormat(2) }, "2026-11-25"], { fill: FILLS.red });
    rows.row(["plain", "12", null], { fill: FILLS.green, fillColumns: [0] });
    rows.end();
    const totals = xlsx.sheet("totals", [{ header: "currency", type: "text" }]);
    totals.row(["HUF"]);
    totals.end();
    await xlsx.end();

    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(file);
    const sheet = book.getWorksheet("rows")!;
    expect(sheet.views[0]).toMatchObject({ state: "frozen", ySplit: 1 });
    const formula = sheet.getCell("A2");
    expect(formula.type).toBe(ExcelJS.ValueType.String);
    expect(formula.value).toBe("=1+1");
    expect(sheet.getCell("B2").value).toBe(-1250.5);
    expect(sheet.getCell("B2").numFmt).toBe("#,##0.00");
    expect(sheet.getCell("C2").value).toEqual(new Date("2026-11-25T00:00:00Z"));
    expect(sheet.getCell("B3").value).toBe(12);
    expect(sheet.getCell("A2").fill).toMatchObject({ fgColor: { argb: `FF${FILLS.red}` } });
    expect(sheet.getCell("A3").fill).toMatchObject({ fgColor: { argb: `FF${FILLS.green}` } });
    expect(sheet.getCell("B3").fill).toBeUndefined();
    expect(book.getWorksheet("totals")!.getCell("A2").value).toBe("HUF");
  });

  it("waits for the compressor between batches of rows and loses none", async () => {
    const file = path.join(dir, "many.xlsx");
    const xlsx = new XlsxWriter(file);
    const sheet = xlsx.sheet("rows", [
      { header: "n", type: "number" },
      { header: "text", type: "text" },
    ]);
    for (let i = 0; i < 20_000; i++) {
      sheet.row([i, `row ${i} ${"x".repeat(100)}`]);
      if (i % 1000 === 999) await sheet.drained();
    }
    await sheet.drained();
    sheet.end();
    await xlsx.end();
    let rows = 0;
    let last: unknown;
    for await (const worksheet of new ExcelJS.stream.xlsx.WorkbookReader(file, {})) {
      for await (const row of worksheet) {
        rows++;
        last = row.getCell(1).value;
      }
    }
    expect(rows).toBe(20_001);
    expect(last).toBe(19_999);
  });

  it("numberFormat follows the currency's decimals", () => {
    expect(numberFormat(0)).toBe("#,##0");
    expect(numberFormat(3)).toBe("#,##0.000");
  });
});

describe("XlsxWriter's parts", () => {
  it("are the XML Excel reads: a frozen pane, widths, styles per format and fill, inline strings", async () => {
    const file = path.join(dir, "parts.xlsx");
    const xlsx = new XlsxWriter(file);
    const sheet = xlsx.sheet("a/b", [
      { header: "név", type: "text", width: 30 },
      { header: "amount", type: "number", numFmt: "#,##0" },
      { header: "day", type: "date", numFmt: "yyyy-mm-dd" },
    ]);
    sheet.row(
      ["Árvíztűrő <tükör> & \u0001fúró", { value: 1234.567, numFmt: numberFormat(3) }, "2026-11-25"],
      {
        fill: FILLS.amber,
        fillColumns: [1],
      },
    );
    sheet.end();
    await xlsx.end();

    const parts = unzipSync(await readFile(file));
    const text = (name: string) => strFromU8(parts[name]!);
    expect(Object.keys(parts).sort()).toEqual([
      "[Content_Types].xml",
      "_rels/.rels",
      "xl/_rels/workbook.xml.rels",
      "xl/styles.xml",
      "xl/workbook.xml",
      "xl/worksheets/sheet1.xml",
    ]);
    expect(text("xl/workbook.xml")).toContain('<sheet name="a b" sheetId="1" r:id="rId1"/>');
    const xml = text("xl/worksheets/sheet1.xml");
    expect(xml).toContain('<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>');
    expect(xml).toContain('<col min="1" max="1" width="30" customWidth="1"/>');
    expect(xml).toContain('<t xml:space="preserve">Árvíztűrő &lt;tükör&gt; &amp; fúró</t>');
    // 2026-11-25 is day 46,351 counted Excel's way.
    expect(xml).toMatch(/<c r="C2" s="\d+"><v>46351<\/v><\/c>/);
    const styles = text("xl/styles.xml");
    expect(styles).toContain('formatCode="#,##0.000"');
    expect(styles).toContain('<fgColor rgb="FFFCE8B2"/>');
    expect(styles).toContain("<b/>");

    const csv = path.join(dir, "parts.csv");
    await xlsxToCsv(file, csv);
    expect((await readFile(csv, "utf8")).split("\n")).toEqual([
      `"név";"amount";"day"`,
      `"Árvíztűrő <tükör> & fúró";"1234.567";"46351"`,
      "",
    ]);
  });
});
