import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { PaymentRow } from "../../src/formats/batch-row.ts";
import { type BatchLayout, openBatch, type ReadOptions } from "../../src/formats/read/batch-reader.ts";

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "../fixtures/payments");

async function readAll(
  name: string,
  options: Partial<ReadOptions> = {},
): Promise<{ layout: BatchLayout; rowCount: number; rows: PaymentRow[] }> {
  const opened = await openBatch(join(FIXTURES, name), { currency: "HUF", ...options });
  if (!opened.ok) throw new Error(`${name}: ${JSON.stringify(opened.problems)}`);
  const rows: PaymentRow[] = [];
  for await (const chunk of opened.chunks(2)) {
    expect(chunk.length).toBeLessThanOrEqual(2);
    rows.push(...chunk);
  }
  return { layout: opened.layout, rowCount: opened.rowCount, rows };
}

const pick = (rows: PaymentRow[], ...keys: (keyof PaymentRow)[]) =>
  rows.map((row) => Object.fromEntries(keys.map((k) => [k, row[k]])));

describe("payment files as people have them", () => {
  it("reads a Windows-1250 bank export with Hungarian headers and no tax numbers", async () => {
    const { layout, rowCount, rows } = await readAll("bank-windows-1250.csv");
    expect(layout).toEqual({
      encoding: "windows-1250",
      encodingDetected: true,
      encodingNote: null,
      delimiter: ";",
      headerLine: 1,
      columns: {
        bank_account: "Kedvezményezett számlaszáma",
        amount: "Összeg",
        reference: "Közlemény",
        name: "Kedvezményezett neve",
      },
      ignored: [],
    });
    expect(rowCount).toBe(3);
    expect(pick(rows, "line", "taxId", "name", "amount", "amountRaw", "currency", "reference")).toEqual([
      {
        line: 2,
        taxId: null,
        name: "Kővári Ügyvédi Iroda",
        amount: "1250000",
        amountRaw: "1\u00a0250\u00a0000",
        currency: "HUF",
        reference: "2026/114 számla",
      },
      {
        line: 3,
        taxId: null,
        name: "Šimon és Žofia Bt.",
        amount: "12500",
        amountRaw: "12.500",
        currency: "HUF",
        reference: "Szerződés ťarifa",
      },
      {
        line: 4,
        taxId: null,
        name: "Őrségi Űrtechnika Kft.",
        amount: "1250",
        amountRaw: "1250,-",
        currency: "HUF",
        reference: "Díj; november",
      },
    ]);
    expect(rows[0]?.bankAccount).toMatch(/^11773016-\d{8}$/);
  });

  it("reads Excel's Unicode text (UTF-16 LE with a BOM, tab-separated)", async () => {
    const { layout, rows } = await readAll("excel-unicode.txt");
    expect(layout).toMatchObject({
      encoding: "utf-16le",
      delimiter: "\t",
      columns: {
        tax_id: "Adószám",
        bank_account: "Bankszámlaszám",
        currency: "Pénznem",
        name: "Partner neve",
      },
    });
    expect(pick(rows, "line", "taxId", "name", "amount", "currency")).toEqual([
      { line: 2, taxId: "12345676-2-41", name: "Kővári Ügyvédi Iroda", amount: "1250000", currency: "HUF" },
      { line: 3, taxId: "23456787-2-13", name: "Őrségi Űrtechnika Kft.", amount: "1250.5", currency: "EUR" },
    ]);
  });

  it("reads semicolon UTF-8 with a BOM, Hungarian amounts and a negative one", async () => {
    const { layout, rows } = await readAll("semicolon-utf8-bom.csv");
    expect(layout).toMatchObject({
      encoding: "utf-8",
      delimiter: ";",
      columns: {
        tax_id: "Partner adószáma",
        bank_account: "Jóváírandó számlaszám",
        amount: "Átutalandó összeg",
        currency: "Deviza",
        reference: "Megjegyzés",
        name: "Kedvezményezett",
      },
    });
    expect(pick(rows, "line", "taxId", "amount", "amountProblem", "currency", "name")).toEqual([
      {
        line: 2,
        taxId: "12345676-2-41",
        amount: "1250000.5",
        amountProblem: null,
        currency: "HUF",
        name: "Kővári Ügyvédi Iroda",
      },
      {
        line: 3,
        taxId: "23456787-2-13",
        amount: "1250000",
        amountProblem: null,
        currency: "HUF",
        name: "Őrségi Űrtechnika Kft.",
      },
      {
        line: 4,
        taxId: null,
        amount: "-1250",
        amountProblem: null,
        currency: "HUF",
        name: "Kővári Ügyvédi Iroda",
      },
    ]);
  });

  it("reads an IBAN-only export below its title lines, the currency taken from the amount", async () => {
    const { layout, rows } = await readAll("iban-only.csv");
    expect(layout).toMatchObject({
      headerLine: 4,
      delimiter: ";",
      columns: { bank_account: "IBAN", name: "Kedvezményezett", amount: "Összeg", reference: "Közlemény" },
    });
    expect(pick(rows, "line", "taxId", "bankAccount", "amount", "currency")).toEqual([
      {
        line: 5,
        taxId: null,
        bankAccount: expect.stringMatching(/^HU\d\d 1177 3016 1111 1010 0000 000\d$/),
        amount: "1250000",
        currency: "HUF",
      },
      {
        line: 6,
        taxId: null,
        bankAccount: expect.stringMatching(/^HU\d\d 1040 000\d/),
        amount: "1250.5",
        currency: "EUR",
      },
    ]);
  });

  it("reads an ISO-8859-2 export: Š and Ľ where Windows-1250 has © and Ą", async () => {
    const { layout, rows } = await readAll("erp-iso-8859-2.csv");
    expect(layout.encoding).toBe("iso-8859-2");
    expect(pick(rows, "name", "amount", "currency")).toEqual([
      { name: "Šimon Ľubomír e.v.", amount: "1250000.5", currency: "HUF" },
      { name: "Kővári Ügyvédi Iroda", amount: "980", currency: "EUR" },
    ]);
  });

  it("reads letters Windows-1250 and ISO-8859-2 share the same whichever is detected", async () => {
    const { layout, rows } = await readAll("shared-letters-1250.csv");
    expect(layout.encoding).toBe("windows-1250");
    expect(rows.map((r) => r.name)).toEqual(["Kővári Ügyvédi Iroda", "Őszi Űrhajózási Kft."]);
    expect(rows.map((r) => r.amount)).toEqual(["150000", "2500"]);
  });

  it("reads the English-header file, leaving a zero and an unreadable amount to the verdicts", async () => {
    const { layout, rows } = await readAll("english.csv");
    expect(layout).toMatchObject({
      encoding: "utf-8",
      delimiter: ",",
      columns: { tax_id: "tax_id", bank_account: "bank_account" },
    });
    expect(pick(rows, "line", "amount", "amountRaw", "amountProblem", "currency")).toEqual([
      { line: 2, amount: "1250.5", amountRaw: "1,250.50", amountProblem: null, currency: "HUF" },
      { line: 3, amount: "0", amountRaw: "0", amountProblem: null, currency: "EUR" },
      {
        line: 4,
        amount: null,
        amountRaw: "12,5,3",
        amountProblem: 'amount "12,5,3" is not a number',
        currency: "HUF",
      },
    ]);
  });

  it("decodes as --encoding says, whatever the content suggests", async () => {
    const { layout, rows } = await readAll("erp-iso-8859-2.csv", { encoding: "cp1250" });
    expect(layout).toMatchObject({ encoding: "windows-1250", encodingDetected: false });
    expect(rows.map((r) => r.name)).toEqual(["©imon Ąubomír e.v.", "Kővári Ügyvédi Iroda"]);
  });

  it.each(["", "auto", " AUTO "])("detects the encoding when --encoding is %j", async (encoding) => {
    const { layout } = await readAll("bank-windows-1250.csv", { encoding });
    expect(layout).toMatchObject({ encoding: "windows-1250", encodingDetected: true });
  });

  it("refuses a line that --encoding turns into control codes", async () => {
    const opened = await openBatch(join(FIXTURES, "bank-windows-1250.csv"), {
      currency: "HUF",
      encoding: "latin2",
    });
    expect(opened).toEqual({
      ok: false,
      problems: [
        { line: 3, message: "line 3 cannot be read as iso-8859-2: give --encoding with the file's encoding" },
      ],
    });
  });

  it("maps other headers with --columns", async () => {
    const { layout, rows } = await readAll("iban-only.csv", {
      columns: { reference: "Kedvezményezett", name: "Közlemény" },
    });
    expect(layout.columns).toMatchObject({ reference: "Kedvezményezett", name: "Közlemény" });
    expect(rows[0]).toMatchObject({ reference: "Kővári Ügyvédi Iroda", name: "Számla 1" });
  });

  it("gives rows without a currency the batch's", async () => {
    const { rows } = await readAll("shared-letters-1250.csv", { currency: "eur" });
    expect(pick(rows, "amount", "currency")).toEqual([
      { amount: "150000", currency: "EUR" },
      { amount: "2500", currency: "EUR" },
    ]);
  });
});
