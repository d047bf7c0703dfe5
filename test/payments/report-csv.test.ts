/**
 * The CSV report's cells come in CSV_COLUMNS' order, each the value its column names, as the
 * JSON report gives it.
 */
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { CsvFormat } from "../../src/formats/write/csv-writer.ts";
import { CSV_COLUMNS, CsvSink, csvCells } from "../../src/payments/report-csv.ts";
import { jsonRow } from "../../src/payments/report-rows.ts";
import type { CheckedRow } from "../../src/payments/verdicts.ts";

const payment = { line: 7, taxId: "12345676-2-41", bankAccount: "11773016 11111018", name: "Példa Kft." };
const money = { amount: "1250.5", amountRaw: "1 250,50 Ft", amountProblem: null, currency: "HUF" };
const said = { detailSaid: [], nextStepSaid: null, verifiedBy: "anna", verifiedOn: "2024-06-21" };
const found = {
  taxBase: "12345676",
  payeeFoundBy: "tax_id" as const,
  registryName: "Példa Kereskedelmi Kft.",
};
const verdict = { verdict: "account_recently_changed" as const, nextStep: "confirm the account" };
const checked: CheckedRow = {
  ...payment,
  ...money,
  ...said,
  ...found,
  ...verdict,
  account: "11773016-11111018-00000000",
  reference: "=INV-7",
  detail: "added",
};

describe("csvCells", () => {
  it("gives jsonRow's value of every CSV column, in CSV_COLUMNS' order", () => {
    for (const r of [checked, { ...checked, amount: null, verifiedBy: null, verifiedOn: null }]) {
      const row = jsonRow(r);
      const byName = CSV_COLUMNS.map((c) =>
        c === "amount" && row.amount !== null ? { decimal: row.amount } : row[c],
      );
      expect(csvCells(r)).toEqual(byName);
    }
    // Every value differs, so a column out of its place would show.
    expect(new Set(csvCells(checked).map((c) => JSON.stringify(c))).size).toBe(CSV_COLUMNS.length);
  });
});

describe("CsvSink", () => {
  it("writes each row as CsvFormat writes csvCells, repeating payees' kept text included", async () => {
    const rows: CheckedRow[] = [
      checked,
      { ...checked, line: 8, name: '=cmd|"/c calc"!A1', registryName: "Kővári, Ügyvédi\nIroda" },
      { ...checked, line: 9, amount: null, verifiedBy: null, verifiedOn: null, detail: 'a "quoted" word' },
      { ...checked, line: 10, name: "-12,5", taxId: null, account: null, nextStep: null },
    ];
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on("data", (b: Buffer) => chunks.push(b));
    const sink = new CsvSink(out);
    for (let round = 0; round < 3; round++) await sink.rows(rows);
    await sink.end({} as never);
    const format = new CsvFormat({ delimiter: "," });
    const expected = [
      format.line(CSV_COLUMNS),
      ...[0, 1, 2].flatMap(() => rows.map((r) => format.line(csvCells(r)))),
    ];
    expect(Buffer.concat(chunks).toString()).toBe(expected.join(""));
  });
});
