import { describe, expect, it } from "vitest";
import {
  checkBankAccount,
  checkName,
  checkRegistrationNumber,
  checkSearchValue,
} from "../../src/api/search-query.ts";
import { describeImportProblems, parseImportCsv, splitCsv } from "../../src/search/import-csv.ts";

describe("search values", () => {
  it("accepts the four registration number formats and nothing else", () => {
    for (const value of ["01-09-123456", "12345678", "01-02-123", "12345"]) {
      expect(checkRegistrationNumber(` ${value} `)).toEqual({ ok: true, value });
    }
    for (const value of ["01-09-12345", "1234567", "123456", "01/09/123456", "ab-cd-efg", ""]) {
      const checked = checkRegistrationNumber(value);
      expect(checked.ok).toBe(false);
      if (!checked.ok) expect(checked.problem).toContain("xx-yy-zzzzzz");
    }
  });

  it("wants names of at least three characters, blanks not counted", () => {
    expect(checkName("  Kovács   és  ")).toEqual({ ok: true, value: "Kovács és" });
    expect(checkName("abc")).toEqual({ ok: true, value: "abc" });
    expect(checkName("a b").ok).toBe(false);
    const short = checkName("ab");
    expect(short.ok === false && short.problem).toMatch(/at least 3 characters/);
  });

  it("accepts a full bank account or its 17-character prefix, grouping bare digits", () => {
    expect(checkBankAccount("11111111-22222222-33333333")).toEqual({
      ok: true,
      value: "11111111-22222222-33333333",
    });
    expect(checkBankAccount("11111111-22222222").ok).toBe(true);
    expect(checkBankAccount("111111112222222233333333")).toEqual({
      ok: true,
      value: "11111111-22222222-33333333",
    });
    expect(checkBankAccount("1111111122222222")).toEqual({ ok: true, value: "11111111-22222222" });
    for (const bad of ["11111111", "11111111-2222222", "11111111-22222222-3333", "x1111111-22222222"]) {
      expect(checkBankAccount(bad).ok).toBe(false);
    }
  });

  it("dispatches on the kind", () => {
    expect(checkSearchValue("name", "ab").ok).toBe(false);
    expect(checkSearchValue("reg-number", "12345").ok).toBe(true);
    expect(checkSearchValue("bank-account", "12345").ok).toBe(false);
  });
});

describe("import CSV", () => {
  it("splits quoted fields and keeps the line each record starts on", () => {
    const records = splitCsv('a,b\r\n"x, y","say ""hi"""\n"multi\nline",z\n');
    expect(records.map((r) => [r.line, r.fields])).toEqual([
      [1, ["a", "b"]],
      [2, ["x, y", 'say "hi"']],
      [3, ["multi\nline", "z"]],
    ]);
  });

  it("reads tax ids, registration numbers and notes", () => {
    const text = "\uFEFFTax_ID,reg_number,note\n10000001,,first\n,01-09-123456,\n\n";
    expect(parseImportCsv(text)).toEqual({
      rows: [
        { line: 2, taxId: "10000001", note: "first", name: null },
        { line: 3, regNumber: "01-09-123456", note: null, name: null },
      ],
      problems: [],
    });
  });

  it("names the line of every bad row", () => {
    const text = ["tax_id", "10000001", "10000004", "abc", "", "10000018"].join("\n");
    const { rows, problems } = parseImportCsv(text);
    expect(rows.map((r) => r.line)).toEqual([2, 6]);
    expect(problems).toEqual([
      { line: 3, message: 'tax id "10000004" has a wrong check digit (expected 1)' },
      {
        line: 4,
        message: 'tax_id "abc" is neither a tax base number (8 digits) nor a tax number (xxxxxxxx-y-zz)',
      },
    ]);
    expect(describeImportProblems("f.csv", problems)).toContain("line 3: tax id");
  });

  it("refuses a header without a key column and rows with both keys; other columns are ignored", () => {
    expect(parseImportCsv("name\nx\n").problems).toEqual([
      {
        line: 1,
        message:
          "the header must name a tax number column (tax_id, tax_number, Adószám) or a registration number column (reg_number, Cégjegyzékszám)",
      },
    ]);
    expect(parseImportCsv("").problems[0]?.message).toMatch(/empty/);
    const mixed = parseImportCsv("tax_id,reg_number,colour\n10000001,12345,red\n,,\n10000001,a,b,c\n");
    expect(mixed.ignored).toEqual(["colour"]);
    expect(mixed.problems).toEqual([
      { line: 2, message: "give a tax_id or a reg_number, not both" },
      { line: 4, message: "4 fields, but the header names 3 columns" },
    ]);
    expect(parseImportCsv('tax_id\n"10000001\n').problems).toEqual([
      { line: 2, message: "a quoted field is not closed" },
    ]);
    expect(parseImportCsv("reg_number\n\n,\n").problems).toEqual([]);
    expect(parseImportCsv("reg_number,note\n,x\n").problems).toEqual([
      { line: 2, message: "no reg_number given" },
    ]);
  });

  it("reads a semicolon file from a Hungarian spreadsheet: BOM, quoted names, full tax numbers", () => {
    const text =
      '\uFEFFtax_number;name;note\r\n12345676-2-41;"Kovács és Társa; Kft.";"says ""urgent"""\r\n' +
      "10000001;Második Bt.;\r\n12345675-2-41;Rossz;\r\n";
    const { rows, problems } = parseImportCsv(text);
    expect(rows).toEqual([
      { line: 2, taxId: "12345676", name: "Kovács és Társa; Kft.", note: 'says "urgent"' },
      { line: 3, taxId: "10000001", name: "Második Bt.", note: null },
    ]);
    expect(problems).toEqual([
      { line: 4, message: 'tax id "12345675" has a wrong check digit (expected 6)' },
    ]);
  });

  it("keeps the line a record starts on when a quoted field spans lines", () => {
    const { rows } = parseImportCsv('tax_id,note\n10000001,"two\nlines"\n12345676,x\n');
    expect(rows.map((r) => r.line)).toEqual([2, 4]);
  });
});
