import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
