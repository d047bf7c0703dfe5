import { describe, expect, it } from "vitest";
import {
  amountByRules,
  commonAmount,
  currencyAfterDigits,
  currencyDecimals,
  readAmount,
  readCurrency,
  splitByRules,
  splitCurrency,
  wholeInPractice,
} from "../../src/formats/read/amounts.ts";

/** An amount cell as the reader sees it: the currency word taken off first. */
function read(cell: string, currency = "HUF") {
  const split = splitCurrency(cell);
  return readAmount(split.text, currency);
}

describe("amounts as written", () => {
  const amounts: [cell: string, currency: string, amount: string][] = [
    ["1250000", "HUF", "1250000"],
    ["1.250.000,50", "HUF", "1250000.5"],
    ["1.250.000,50", "EUR", "1250000.5"],
    ["1 250 000", "HUF", "1250000"],
    ["1\u00a0250\u00a0000", "HUF", "1250000"],
    ["1\u202f250\u202f000,75", "EUR", "1250000.75"],
    ["1'250'000.00", "EUR", "1250000"],
    ["1250000 Ft", "HUF", "1250000"],
    ["1 250 000 Ft", "HUF", "1250000"],
    ["1 250 000 Ft.", "HUF", "1250000"],
    ["HUF 1250000", "HUF", "1250000"],
    ["12.500", "HUF", "12500"],
    ["1,250", "HUF", "1250"],
    ["12.500 Ft", "HUF", "12500"],
    ["1,250.50", "EUR", "1250.5"],
    ["1.250,50", "EUR", "1250.5"],
    ["1,250,000", "EUR", "1250000"],
    ["1.250.000", "EUR", "1250000"],
    ["1250,5", "EUR", "1250.5"],
    ["1250.05", "EUR", "1250.05"],
    ["0,5", "EUR", "0.5"],
    ["€ 1 250,00", "EUR", "1250"],
    ["$1,250.00", "USD", "1250"],
    ["1250 EUR", "EUR", "1250"],
    ["-1250", "HUF", "-1250"],
    ["−1250", "HUF", "-1250"],
    ["- 1 250", "HUF", "-1250"],
    ["(1250)", "HUF", "-1250"],
    ["(1.250,50)", "EUR", "-1250.5"],
    ["+1250", "HUF", "1250"],
    ["1250,-", "HUF", "1250"],
    ["1.250,-", "EUR", "1250"],
    ["1 250.-", "HUF", "1250"],
    ["0", "HUF", "0"],
    ["-0", "HUF", "0"],
    ["0,00", "EUR", "0"],
    ["007", "HUF", "7"],
    ["1,250", "JPY", "1250"],
    ["12.500", "JPY", "12500"],
  ];
  it.each(amounts)("%s in %s is %s", (cell, currency, amount) => {
    expect(read(cell, currency)).toEqual({ kind: "amount", amount });
  });

  const ambiguous: [cell: string, currency: string][] = [
    ["1.250", "EUR"],
    ["1,250", "EUR"],
    ["12.500", "USD"],
    ["€ 1,250", "EUR"],
    ["-1.250", "EUR"],
    ["1.250", "KWD"],
  ];
  it.each(ambiguous)("%s in %s is ambiguous, with the way to write it", (cell, currency) => {
    const reading = read(cell, currency);
    expect(reading.kind).toBe("ambiguous");
    if (reading.kind === "ambiguous")
      expect(reading.problem).toMatch(
        /ambiguous in .*: it could be \d+ or \d+\.\d+; write \d+ or \d+\.00 for the first/,
      );
  });

  const wrong: [cell: string, currency: string, problem: RegExp][] = [
    ["12,5,3", "HUF", /"12,5,3" is not a number/],
    ["abc", "HUF", /not a number/],
    ["", "HUF", /not a number/],
    ["12 50", "HUF", /not a number/],
    ["1.25.000", "HUF", /not a number/],
    ["1,250.000,50", "EUR", /not a number/],
    ["1..250", "HUF", /not a number/],
    ["1250.", "HUF", /not a number/],
    [",50", "EUR", /not a number/],
    ["=1+1", "HUF", /not a number/],
    ["1250,50,-", "HUF", /not a number/],
    ["1250,555", "EUR", /has 3 decimals; EUR has 2/],
    ["0,500", "EUR", /has 3 decimals; EUR has 2/],
    ["1250.5", "JPY", /has 1 decimal; JPY has 0/],
    ["1250,000", "JPY", /has 3 decimals; JPY has 0/],
    ["1250,001", "HUF", /has 3 decimals; HUF has 2/],
  ];
  it.each(wrong)("%s in %s is refused on its row", (cell, currency, problem) => {
    const reading = read(cell, currency);
    expect(reading.kind).toBe("problem");
    if (reading.kind === "problem") expect(reading.problem).toMatch(problem);
  });
});

describe("currency words and codes", () => {
  it("takes the currency word or symbol off either end", () => {
    expect(splitCurrency("1 250 000 Ft")).toEqual({ text: "1 250 000", currency: "Ft" });
    expect(splitCurrency("HUF\u00a01250")).toEqual({ text: "1250", currency: "HUF" });
    expect(splitCurrency("-€12,50")).toEqual({ text: "-12,50", currency: "€" });
    expect(splitCurrency("12,50 $")).toEqual({ text: "12,50", currency: "$" });
    expect(splitCurrency("1250")).toEqual({ text: "1250", currency: null });
    expect(splitCurrency("abc")).toEqual({ text: "abc", currency: null });
  });

  it("reads codes, Ft and symbols, and refuses what is no ISO 4217 code", () => {
    expect(readCurrency(" huf ")).toEqual({ ok: true, code: "HUF" });
    expect(readCurrency("Ft")).toEqual({ ok: true, code: "HUF" });
    expect(readCurrency("€")).toEqual({ ok: true, code: "EUR" });
    expect(readCurrency("XYZ")).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/"XYZ" is not an ISO 4217/),
    });
    expect(readCurrency("Euro").ok).toBe(false);
  });

  it("gives each currency its ISO 4217 decimals, and knows which are paid whole in practice", () => {
    expect([
      currencyDecimals("HUF"),
      currencyDecimals("EUR"),
      currencyDecimals("JPY"),
      currencyDecimals("KWD"),
    ]).toEqual([2, 2, 0, 3]);
    expect(() => currencyDecimals("XYZ")).toThrow(RangeError);
    expect([wholeInPractice("HUF"), wholeInPractice("JPY"), wholeInPractice("EUR")]).toEqual([
      true,
      true,
      false,
    ]);
  });
});

/** A fixed pseudo-random series: next(n) is 0 to n - 1. */
function seeded(start: number): (n: number) => number {
  let seed = start;
  return (n) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
}

describe("the common amounts read in one pass", () => {
  it("answers for the shapes exports are full of", () => {
    expect(commonAmount("1 250 000", "HUF")).toBe("1250000");
    expect(commonAmount("1.250.000,50", "HUF")).toBe("1250000.5");
    expect(commonAmount("1,250,000.25", "EUR")).toBe("1250000.25");
    expect(commonAmount("16838,50", "HUF")).toBe("16838.5");
    expect(commonAmount("0 001", "HUF")).toBe("1");
    // Three digits after one mark depend on the currency (or are ambiguous): the rules decide.
    expect(commonAmount("8.919", "HUF")).toBeUndefined();
    expect(commonAmount("-1 250", "HUF")).toBeUndefined();
  });

  it("reads every cell as the rules do wherever it answers", () => {
    // A fixed pseudo-random series of cells of digits and marks, so a failure can be replayed.
    const next = seeded(20261206);
    const alphabet = "0123456789012345678901234567890123456789 .,'-";
    let answered = 0;
    for (let k = 0; k < 40_000; k++) {
      let cell = "";
      const length = 1 + next(18);
      for (let i = 0; i < length; i++) cell += alphabet[next(alphabet.length)];
      for (const currency of ["HUF", "EUR", "JPY", "BHD"]) {
        const common = commonAmount(cell, currency);
        if (common === undefined) continue;
        answered++;
        expect([cell, currency, amountByRules(cell, currency)]).toEqual([
          cell,
          currency,
          { kind: "amount", amount: common },
        ]);
      }
    }
    expect(answered).toBeGreaterThan(1000);
  });

  it("leaves grouped amounts of every currency to the rules when they could be read two ways", () => {
    const cells = [
      "12.500",
      "1,250",
      "1 250.500",
      "12.500,00",
      "12,500.00",
      "1.000,5 0",
      "1 000.2 5",
      "1.000.000",
    ];
    for (const cell of cells) {
      for (const currency of ["HUF", "EUR", "BHD"]) {
        const common = commonAmount(cell, currency);
        if (common !== undefined)
          expect(amountByRules(cell, currency)).toEqual({ kind: "amount", amount: common });
        expect(readAmount(cell, currency)).toEqual(amountByRules(cell, currency));
      }
    }
  });
});

describe("a currency word after the digits, taken off without the expression", () => {
  it("answers for the common cells", () => {
    expect(currencyAfterDigits("8.919 Ft")).toEqual({ text: "8.919", currency: "Ft" });
    expect(currencyAfterDigits("1 250 000 Ft.")).toEqual({ text: "1 250 000", currency: "Ft." });
    expect(currencyAfterDigits("125,50EUR")).toEqual({ text: "125,50", currency: "EUR" });
    expect(currencyAfterDigits("12 €")).toBeUndefined();
    expect(currencyAfterDigits("-12 Ft")).toBeUndefined();
    expect(splitCurrency("8.919\u00a0Ft")).toEqual({ text: "8.919", currency: "Ft" });
  });

  it("takes off what the expression takes off wherever it answers", () => {
    const next = seeded(50);
    const alphabet = "0123456789012345 .,-\tFfTtEURxé€";
    let answered = 0;
    for (let k = 0; k < 40_000; k++) {
      let cell = String(next(10));
      const length = next(12);
      for (let i = 0; i < length; i++) cell += alphabet[next(alphabet.length)];
      cell += ["", " Ft", "Ft.", "  EUR", "xFt", " huf", " €", "\tFt"][next(8)];
      const fast = currencyAfterDigits(cell);
      if (fast === undefined) continue;
      answered++;
      expect([cell, splitByRules(cell)]).toEqual([cell, fast]);
    }
    expect(answered).toBeGreaterThan(1000);
  });
});
