/**
 * Issue 49, point 2 over HTTP: a supplier-invoice export's headers (Szállító neve, Közösségi
 * adószám, Számlaszám, Fizetendő, Pénznem, Megjegyzés) are read for every field; the batch page
 * says which column was read for each field and which were not, in both languages; "Számlaszám"
 * holding invoice numbers is the invoice number, not the account; a file without a name column
 * is checked at once and the page offers to choose it, and the choice, kept, is shown with its
 * author and day on every batch read with it.
 */
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { matchLayout } from "../../src/formats/read/columns.ts";
import {
  createUser,
  postForm,
  type SignedIn,
  signIn,
  startTestConsole,
  type TestConsole,
} from "../helpers/console.ts";
import { emulatorEnv } from "../helpers/sync.ts";
import { type PagesWorld, startPagesWorld } from "./pages-fixture.ts";

const UUID = /^\/payments\/([0-9a-f-]{36})$/;

describe("payment files' own headers", () => {
  let w: PagesWorld;
  let web: TestConsole;
  let clerk: SignedIn;
  let known: { tax_id: string; bank_account: string }[];

  beforeAll(async () => {
    w = await startPagesWorld({ seed: 17 });
    web = await startTestConsole(w.t.db, {
      now: new Date("2024-03-10T08:00:00+01:00"),
      env: emulatorEnv(w.emulator),
    });
    await createUser(w.t.db, "erika", "reviewer");
    clerk = await signIn(web.url, "erika");
    known = await w.t.db.sql<{ tax_id: string; bank_account: string }[]>`
      select distinct on (tax_id) tax_id, bank_account from regwatch.v_bank_accounts
      where tax_id = any(${w.taxIds}::text[]) order by tax_id, bank_account limit 3`;
    expect(known.length).toBeGreaterThan(1);
  }, 240_000);
  afterAll(async () => {
    await web?.close();
    await w?.close();
  });

  const upload = (file: Blob, name: string) => {
    const form = new FormData();
    form.append("_csrf", clerk.csrf);
    form.append("file", file, name);
    return fetch(`${web.url}/payments`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: clerk.cookie },
      body: form,
    });
  };
  const batchOf = (answer: Response) => {
    expect(answer.status).toBe(303);
    return UUID.exec(answer.headers.get("location") ?? "")![1]!;
  };
  const page = async (id: string, language: string) => {
    const answer = await fetch(`${web.url}/payments/${id}`, {
      headers: { cookie: clerk.cookie, "accept-language": language },
    });
    expect(answer.status).toBe(200);
    return (await answer.text()).replace(/\s+/g, " ").replaceAll("&#39;", "'");
  };
  const workbook = async (header: string[], rows: (string | number)[][]) => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet("Szállítói számlák");
    sheet.addRow(header);
    for (const row of rows) sheet.addRow(row);
    return new Blob([Buffer.from(await book.xlsx.writeBuffer())]);
  };

  it("reads a supplier export's name, tax number, account and payable amount, and says so on the batch page", async () => {
    const header = ["Szállító neve", "Közösségi adószám", "Számlaszám", "Fizetendő", "Pénznem", "Megjegyzés"];
    const file = await workbook(
      header,
      known.map((k, i) => [
        `Szállító ${i} Kft.`,
        k.tax_id,
        k.bank_account,
        1000 * (i + 1),
        "HUF",
        `INV-${i}`,
      ]),
    );
    const id = batchOf(await upload(file, "szallitok.xlsx"));
    const rows = await w.t.db.sql<{ name: string; tax_id: string; amount: string; reference: string }[]>`
      select name, tax_id, amount::text as amount, reference from regwatch.payment_checks
      where batch_id = ${id} order by line`;
    expect(rows).toEqual(
      known.map((k, i) => ({
        name: `Szállító ${i} Kft.`,
        tax_id: k.tax_id,
        amount: String(1000 * (i + 1)),
        reference: `INV-${i}`,
      })),
    );
    const [batch] = await w.t.db.sql<{ read_columns: Record<string, string>; ignored_columns: string[] }[]>`
      select read_columns, ignored_columns from regwatch.payment_batches where id = ${id}`;
    expect(batch).toEqual({
      read_columns: {
        name: "Szállító neve",
        tax_id: "Közösségi adószám",
        bank_account: "Számlaszám",
        amount: "Fizetendő",
        currency: "Pénznem",
        reference: "Megjegyzés",
      },
      ignored_columns: [],
    });
    const en = await page(id, "en");
    expect(en).toContain("Columns read");
    expect(en).toContain("Payee's name</span>: column “Szállító neve”");
    expect(en).toContain("Tax number</span>: column “Közösségi adószám”");
    expect(en).toContain("Amount</span>: column “Fizetendő”");
    expect(en).toContain("Every column of the file was read.");
    expect(en).not.toContain("No column was found for");
    const hu = await page(id, "hu");
    expect(hu).toContain("Beolvasott oszlopok");
    expect(hu).toContain("Kedvezményezett neve</span>: „Szállító neve” oszlop");
    expect(hu).toContain("Összeg</span>: „Fizetendő” oszlop");
  });

  it("takes a Számlaszám of invoice numbers for the invoice number, and lists what it did not read", async () => {
    const header = [
      "Partner neve",
      "Adószám",
      "Számlaszám",
      "Bankszámlaszám",
      "Nettó összeg",
      "Bruttó összeg",
    ];
    const file = [
      header.join(";"),
      ...known.map(
        (k, i) => `Partner ${i};${k.tax_id};2024/00${i};${k.bank_account};${100 * (i + 1)};${127 * (i + 1)}`,
      ),
    ].join("\r\n");
    const id = batchOf(await upload(new Blob([file]), "partnerek.csv"));
    const rows = await w.t.db.sql<{ bank_account: string; reference: string; amount: string }[]>`
      select bank_account, reference, amount::text as amount from regwatch.payment_checks
      where batch_id = ${id} order by line`;
    expect(rows.map((r) => r.reference)).toEqual(known.map((_, i) => `2024/00${i}`));
    expect(rows.map((r) => r.amount)).toEqual(known.map((_, i) => String(127 * (i + 1))));
    const en = await page(id, "en");
    expect(en).toContain("Reference</span>: column “Számlaszám”");
    expect(en).toContain("Bank account</span>: column “Bankszámlaszám”");
    expect(en).toContain("Not read: “Nettó összeg”");
    const hu = await page(id, "hu");
    expect(hu).toContain("Nem beolvasott oszlop: „Nettó összeg”");
  });

  it("offers the name column when none was found, keeps the choice and says who made it and when", async () => {
    const file = () =>
      [
        "Adószám;Számlaszám;Összeg;Cég",
        ...known.map((k, i) => `${k.tax_id};${k.bank_account};${10 * (i + 1)};Cég ${i}`),
      ].join("\r\n");
    const first = batchOf(await upload(new Blob([file()]), "cegek.csv"));
    const en = await page(first, "en");
    expect(en).toContain("No column was found for: Payee's name.");
    expect(en).toContain("Not read: “Cég”");
    const hu = await page(first, "hu");
    expect(hu).toContain("Nem találtunk oszlopot a következőkhöz: Kedvezményezett neve.");
    const held = /name="held" value="([0-9a-f-]{36})"/.exec(en)![1]!;
    const chosen = await postForm(`${web.url}/payments/columns`, clerk, {
      held,
      bank_account: "Számlaszám",
      tax_id: "Adószám",
      amount: "Összeg",
      name: "Cég",
    });
    const second = batchOf(chosen);
    const names = await w.t.db.sql<{ name: string }[]>`
      select name from regwatch.payment_checks where batch_id = ${second} order by line`;
    expect(names.map((r) => r.name)).toEqual(known.map((_, i) => `Cég ${i}`));
    const after = await page(second, "en");
    expect(after).toContain("Payee's name</span>: column “Cég”");
    expect(after).toMatch(/Read with the columns erika chose \([^)]*\d{4}[^)]*\)\./);
    expect(after).not.toContain("No column was found for");
    // The next file with this header is read with the kept choice, and says whose it is.
    const third = batchOf(await upload(new Blob([file()]), "cegek-2.csv"));
    const again = await page(third, "hu");
    expect(again).toContain("Az oszlopokat erika választotta ki");
    expect(again).toContain("Kedvezményezett neve</span>: „Cég” oszlop");
  });

  it("reads the payable amount before the gross and the gross before the net", () => {
    const match = matchLayout([
      "Számlaszám",
      "Nettó összeg",
      "Bruttó összeg",
      "Fizetendő",
      "Supplier name",
      "EU VAT number",
    ]);
    expect(match).toMatchObject({
      ok: true,
      layout: {
        columns: {
          bank_account: "Számlaszám",
          amount: "Fizetendő",
          name: "Supplier name",
          tax_id: "EU VAT number",
        },
        ignored: ["Nettó összeg", "Bruttó összeg"],
      },
    });
    expect(
      matchLayout([
        "IBAN",
        "Net amount",
        "Gross amount",
        "Payee",
        "Tax number",
        "Currency",
        "Invoice number",
      ]),
    ).toMatchObject({
      ok: true,
      layout: {
        columns: { amount: "Gross amount", name: "Payee", tax_id: "Tax number", reference: "Invoice number" },
      },
    });
  });
});
