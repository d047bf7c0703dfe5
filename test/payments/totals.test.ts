import { describe, expect, it } from "vitest";
import { BatchTotals, formatMoney } from "../../src/payments/totals.ts";

describe("BatchTotals", () => {
  it("adds exactly in each currency's decimals and keeps what is held apart", () => {
    const totals = new BatchTotals();
    for (let i = 0; i < 1000; i++) totals.add({ amount: "0.1", currency: "EUR", verdict: "ok" });
    totals.add({ amount: "2499502.5", currency: "HUF", verdict: "ok" });
    totals.add({ amount: "-1250", currency: "HUF", verdict: "invalid_amount" });
    totals.add({ amount: "1000", currency: "JPY", verdict: "name_mismatch" });
    totals.add({ amount: null, currency: "HUF", verdict: "invalid_amount" });
    expect(totals.list()).toEqual([
      { currency: "EUR", amount: "100.00", rows: 1000, held: "0.00", heldRows: 0, decimals: 2 },
      { currency: "HUF", amount: "2498252.50", rows: 2, held: "-1250.00", heldRows: 1, decimals: 2 },
      { currency: "JPY", amount: "1000", rows: 1, held: "1000", heldRows: 1, decimals: 0 },
    ]);
  });

  it("keeps every digit an unknown currency brings", () => {
    const totals = new BatchTotals();
    totals.add({ amount: "1.5", currency: "XXX", verdict: "ok" });
    totals.add({ amount: "0.125", currency: "XXX", verdict: "ok" });
    expect(totals.list()[0]).toMatchObject({ amount: "1.625", decimals: 3 });
  });

  it("sums beyond what a double holds exactly", () => {
    const totals = new BatchTotals();
    totals.add({ amount: "9007199254740993.01", currency: "HUF", verdict: "ok" });
    totals.add({ amount: "0.01", currency: "HUF", verdict: "ok" });
    expect(totals.list()[0]!.amount).toBe("9007199254740993.02");
  });
});

describe("formatMoney", () => {
  it.each([
    ["2499502.5", "HUF", "2 499 502.50 HUF"],
    ["-1250", "HUF", "-1 250.00 HUF"],
    ["1000", "JPY", "1 000 JPY"],
    ["0.5", "EUR", "0.50 EUR"],
    ["123", "", "123 (no currency)"],
    ["-999", "JPY", "-999 JPY"],
    ["1234567.891", "XYZ", "1 234 567.891 XYZ"],
  ])("%s %s → %s", (amount, currency, shown) => {
    expect(formatMoney(amount, currency)).toBe(shown);
  });
});
