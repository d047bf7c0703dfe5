/**
 * The CSV report's cells come in CSV_COLUMNS' order, each the value its column names, as the
 * JSON report gives it.
 */
import { describe, expect, it } from "vitest";
import { CSV_COLUMNS, csvCells } from "../../src/payments/report-csv.ts";
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
