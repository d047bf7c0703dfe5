import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/errors.ts";
import { headerKey, matchLayout, parseColumnsOption } from "../../src/formats/read/columns.ts";
import { delimiterOf, findHeaderLine } from "../../src/formats/read/header.ts";

describe("header names", () => {
  it("compares without case, accents, punctuation, blanks or a bracketed note", () => {
    expect(headerKey("Kedvezményezett számlaszáma")).toBe("kedvezmenyezettszamlaszama");
    expect(headerKey("ADÓSZÁM")).toBe("adoszam");
    expect(headerKey("Összeg (Ft)")).toBe("osszeg");
    expect(headerKey(" Bank_Account ")).toBe("bankaccount");
    expect(headerKey("Jóváírandó számla-szám")).toBe("jovairandoszamlaszam");
  });

  it.each([
    [
      ["Adószám", "Számlaszám", "Összeg", "Közlemény", "Kedvezményezett neve"],
      {
        tax_id: "Adószám",
        bank_account: "Számlaszám",
        amount: "Összeg",
        reference: "Közlemény",
        name: "Kedvezményezett neve",
      },
    ],
    [
      ["Adóazonosító jel", "Bankszámlaszám", "Átutalandó összeg", "Deviza", "Partner neve"],
      {
        tax_id: "Adóazonosító jel",
        bank_account: "Bankszámlaszám",
        amount: "Átutalandó összeg",
        currency: "Deviza",
        name: "Partner neve",
      },
    ],
    [
      ["PARTNER ADÓSZÁMA", "Jóváírandó számla", "összeg (HUF)", "Pénznem", "Megjegyzés", "Név"],
      {
        tax_id: "PARTNER ADÓSZÁMA",
        bank_account: "Jóváírandó számla",
        amount: "összeg (HUF)",
        currency: "Pénznem",
        reference: "Megjegyzés",
        name: "Név",
      },
    ],
    [["IBAN", "Payee", "Amount"], { bank_account: "IBAN", name: "Payee", amount: "Amount" }],
    [
      ["tax_number", "bank_account", "amount", "currency", "reference", "name"],
      {
        tax_id: "tax_number",
        bank_account: "bank_account",
        amount: "amount",
        currency: "currency",
        reference: "reference",
        name: "name",
      },
    ],
  ])("reads %j", (headers, columns) => {
    const match = matchLayout(headers);
    expect(match).toMatchObject({ ok: true, layout: { columns, ignored: [] } });
  });

  it("reads the currency an amount header names in brackets", () => {
    expect(matchLayout(["Számlaszám", "Összeg (Ft)"])).toMatchObject({
      ok: true,
      layout: { amountCurrency: "HUF" },
    });
    expect(matchLayout(["Számlaszám", "Amount [EUR]"])).toMatchObject({
      ok: true,
      layout: { amountCurrency: "EUR" },
    });
    expect(matchLayout(["Számlaszám", "Összeg (bruttó)"])).toMatchObject({
      ok: true,
      layout: { amountCurrency: null },
    });
  });

  it("lists unknown columns as ignored", () => {
    const match = matchLayout(["Sorszám", "Számlaszám", "Könyvelési dátum"]);
    expect(match).toMatchObject({
      ok: true,
      layout: { columns: { bank_account: "Számlaszám" }, ignored: ["Sorszám", "Könyvelési dátum"] },
    });
  });

  it("names the columns found and the field needed when no layout is known", () => {
    const match = matchLayout(["Partner", "Bankszla", "Érték"]);
    expect(match.ok).toBe(false);
    if (!match.ok) {
      expect(match.problems[0]).toContain(
        'found: "Partner", "Bankszla", "Érték"; needs a bank account column (számlaszám',
      );
      expect(match.problems[0]).toContain("IBAN, bank_account");
      expect(match.problems[0]).toContain("--columns field=Header");
    }
  });

  it("refuses two columns for one field, and --columns settles it", () => {
    const headers = ["Adószám", "Tax ID", "Számlaszám"];
    const match = matchLayout(headers);
    expect(match).toEqual({
      ok: false,
      problems: [expect.stringContaining('columns "Adószám" and "Tax ID" both give tax_id')],
    });
    const settled = matchLayout(headers, { tax_id: "Tax ID" });
    expect(settled).toMatchObject({
      ok: true,
      layout: { columns: { tax_id: "Tax ID" }, ignored: ["Adószám"] },
    });
  });

  it("maps any header with --columns, without case or accents, and names a missing one", () => {
    const match = matchLayout(["Szla", "Kedv", "Utalás"], {
      bank_account: "szla",
      name: "Kedv",
      amount: "utalas",
    });
    expect(match).toMatchObject({
      ok: true,
      layout: { columns: { bank_account: "Szla", name: "Kedv", amount: "Utalás" } },
    });
    const missing = matchLayout(["Számlaszám", "Név"], { amount: "Összeg HUF" });
    expect(missing).toEqual({
      ok: false,
      problems: ['--columns names "Összeg HUF" for amount, but no column has that header'],
    });
  });
});

describe("--columns", () => {
  it("parses field=Header pairs", () => {
    expect(parseColumnsOption("tax_id=Adó szám, bank_account = Számla ,name=Kedv.")).toEqual({
      tax_id: "Adó szám",
      bank_account: "Számla",
      name: "Kedv.",
    });
  });

  it.each([
    [
      "payee=Név",
      /"payee=Név" names no field \(fields: tax_id, bank_account, amount, currency, reference, name/,
    ],
    ["Számla", /"Számla" names no field/],
    ["amount=", /"amount=" gives no header/],
    ["amount=A,amount=B", /amount is given twice/],
    ["", /no field=Header pair given/],
  ])("refuses %j", (text, message) => {
    expect(() => parseColumnsOption(text)).toThrow(UsageError);
    expect(() => parseColumnsOption(text)).toThrow(message);
  });
});

describe("the header line", () => {
  it("takes the delimiter that occurs most outside quotes", () => {
    expect(delimiterOf("a;b;c")).toBe(";");
    expect(delimiterOf("a\tb\tc")).toBe("\t");
    expect(delimiterOf('"a;b",c,d')).toBe(",");
    expect(delimiterOf("Számlaszám")).toBe(",");
  });

  it("finds the header below a bank's title lines", () => {
    const text = 'Csoportos átutalás "november"\nTerhelendő: 11773016-11111018\n\nSzámlaszám;Összeg\n1;2\n';
    expect(findHeaderLine(text, {})).toMatchObject({
      ok: true,
      header: { line: 4, delimiter: ";", headers: ["Számlaszám", "Összeg"] },
    });
  });

  it("looks no further than ten lines, and reports the first line's columns", () => {
    const text = `${"cím\n".repeat(10)}Számlaszám;Összeg\n`;
    const search = findHeaderLine(text, {});
    expect(search.ok).toBe(false);
    if (!search.ok) {
      expect(search.problems[0]).toMatchObject({ line: 1, message: expect.stringContaining('found: "cím"') });
      expect(search.problems[1]?.message).toContain("no usable header in the first 10 lines");
    }
  });
});
