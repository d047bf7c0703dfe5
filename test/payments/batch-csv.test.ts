import { describe, expect, it } from "vitest";
import { normaliseAmount, parseBatchCsv } from "../../src/payments/batch-csv.ts";

describe("payment batch CSV", () => {
  it("reads semicolons, a BOM, quoted fields and the optional columns", () => {
    const parsed = parseBatchCsv(
      "\uFEFFTax_Number;Bank_Account;Amount;Currency;Reference;Name\r\n" +
        '"12345676-2-41";"11773016-11111018";"1 234,50";huf;"INV; 7";"Kovács és Társa Kft."\r\n\r\n',
    );
    expect(parsed).toEqual({
      ok: true,
      rows: [
        {
          line: 2,
          taxId: "12345676-2-41",
          bankAccount: "11773016-11111018",
          amount: "1234.50",
          currency: "HUF",
          reference: "INV; 7",
          name: "Kovács és Társa Kft.",
        },
      ],
    });
  });

  it("reads commas with quoted amounts, and leaves optional columns out", () => {
    const parsed = parseBatchCsv('tax_id,bank_account,amount\n12345676,11773016-11111018,"1,234.50"\n');
    expect(parsed.ok && parsed.rows[0]).toMatchObject({ amount: "1234.50", currency: null, name: null });
  });

  it("names every bad line with its number", () => {
    const parsed = parseBatchCsv(
      [
        "tax_id,bank_account,amount",
        "12345676,11773016-11111018,5",
        ",11773016-11111018,5",
        "12345676,x,abc",
        "1,2,3,4",
      ].join("\n"),
    );
    expect(parsed).toEqual({
      ok: false,
      problems: [
        { line: 3, message: "no tax_id" },
        { line: 4, message: 'amount "abc" is not a number' },
        { line: 5, message: "4 field(s), but the header names 3 columns" },
      ],
    });
  });

  it("requires a header naming the tax id and account columns, known columns only", () => {
    expect(parseBatchCsv("")).toMatchObject({ ok: false, problems: [{ line: 1, message: /empty/ }] });
    expect(parseBatchCsv("account,iban\n1,2\n")).toMatchObject({
      ok: false,
      problems: [
        {
          line: 1,
          message: "the header row must name a tax_id or tax_number column and a bank_account column",
        },
        { line: 1, message: /unknown column\(s\) "account", "iban"/ },
      ],
    });
    expect(parseBatchCsv("tax_id,bank_account\n")).toMatchObject({
      ok: false,
      problems: [{ message: /no payment rows/ }],
    });
    expect(parseBatchCsv('tax_id,bank_account\n"1,2\n')).toMatchObject({
      ok: false,
      problems: [{ message: /cannot be read as CSV/ }],
    });
  });

  it("reads amounts as people write them", () => {
    expect(normaliseAmount("1 000 000")).toBe("1000000");
    expect(normaliseAmount("1.234.567,89")).toBe("1234567.89");
    expect(normaliseAmount("1'234.5")).toBe("1234.5");
    expect(normaliseAmount("-12,5")).toBe("-12.5");
    expect(normaliseAmount("12.5 EUR")).toBeUndefined();
    expect(normaliseAmount("1.2.3,4,5")).toBeUndefined();
  });
});
