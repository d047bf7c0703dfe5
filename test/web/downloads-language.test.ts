/**
 * Downloads in the reader's language (issue 49, point 6), over HTTP against a database filled by
 * a sync against the emulator. From a Hungarian session the batch CSV and workbook and the change
 * feed's have Hungarian column names, verdicts, yes/no, details and headings, and the workbooks'
 * days are date cells in the Hungarian form; the machine form (`?format=machine`, linked on the
 * pages) keeps today's keys and codes whatever the session's language; an unknown format is
 * refused in the reader's language.
 */
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, getPage, type SignedIn, signIn } from "../helpers/console.ts";
import { type PagesWorld, startPagesWorld } from "./pages-fixture.ts";

const UUID = /^\/payments\/([0-9a-f-]{36})$/;
const HU_DAY = 'yyyy". "mm". "dd"."';

describe("downloads in the reader's language", () => {
  let w: PagesWorld;
  let hedvig: SignedIn;
  let batchId: string;

  const csvLines = async (answer: Response) => {
    expect(answer.status).toBe(200);
    const bytes = new Uint8Array(await answer.arrayBuffer());
    return new TextDecoder().decode(bytes.slice(3)).trimEnd().split("\r\n");
  };
  const workbook = async (answer: Response) => {
    expect(answer.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(await answer.arrayBuffer()) as never);
    return book;
  };
  const get = (path: string) => getPage(`${w.web.url}${path}`, hedvig);

  beforeAll(async () => {
    w = await startPagesWorld({ seed: 13 });
    await createUser(w.t.db, "hedvig", "reviewer");
    await w.t.db.sql`update regwatch.console_users set locale = 'hu' where name = 'hedvig'`;
    hedvig = await signIn(w.web.url, "hedvig");
    const [known] = await w.t.db.sql<{ tax_id: string; bank_account: string }[]>`
      select tax_id, bank_account from regwatch.v_bank_accounts
      where tax_id = any(${w.taxIds}::text[]) order by tax_id, bank_account limit 1`;
    const file = [
      "tax_id;bank_account;amount;currency;reference;name",
      `${known!.tax_id};${known!.bank_account};1000,50;HUF;INV-1;Payee`,
      "12345678;11773016-11111018;5;HUF;bad tax id;Nobody",
    ].join("\n");
    const form = new FormData();
    form.append("_csrf", hedvig.csrf);
    form.append("file", new Blob([file], { type: "text/csv" }), "batch.csv");
    const answer = await fetch(`${w.web.url}/payments`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: hedvig.cookie },
      body: form,
    });
    batchId = UUID.exec(answer.headers.get("location") ?? "")![1]!;
    // A verified row, so the workbook has a day to show.
    await w.t.db.sql`update regwatch.payment_checks set verified_by = 'vera', verified_on = '2026-12-05'
      where batch_id = ${batchId}::uuid and line = 2`;
  }, 240_000);
  afterAll(async () => {
    await w?.close();
  });

  it("writes the batch CSV in Hungarian for a Hungarian session, and today's keys for machines", async () => {
    const person = await csvLines(await get(`/payments/${batchId}.csv`));
    expect(person[0]).toBe(
      "Sor;Adószám;Kedvezményezett a fájlban;Név a nyilvántartásban;Bankszámlaszám;Összeg;Pénznem;Közlemény;Eredmény;Visszatartandó;Miért;Teendő;Ellenőrizte;Ellenőrzés napja",
    );
    const bad = person.find((l) => l.startsWith("3;"))!.split(";");
    expect(bad[8]).toBe("az adószám nem létezhet");
    expect(bad[9]).toBe("igen");
    expect(bad[10]).toMatch(/ellenőrző számjegy/);
    expect(bad.join(";")).not.toMatch(/invalid_tax_id|check digit|;yes;/);
    const machine = await csvLines(await get(`/payments/${batchId}.csv?format=machine`));
    expect(machine[0]).toBe(
      "line;tax_id;name;registry_name;bank_account;amount;currency;reference;verdict;held;detail;next_step;verified_by;verified_on",
    );
    const row = machine.find((l) => l.startsWith("3;"))!.split(";");
    expect(row[8]).toBe("invalid_tax_id");
    expect(row[9]).toBe("yes");
    expect(row[10]).toMatch(/check digit/);
  });

  it("writes the batch workbook in Hungarian with the day as a date cell in the Hungarian form", async () => {
    const book = await workbook(await get(`/payments/${batchId}.xlsx`));
    const sheet = book.getWorksheet("utalások")!;
    expect(sheet.getRow(1).getCell(9).value).toBe("Eredmény");
    expect(sheet.getRow(3).getCell(9).value).toBe("az adószám nem létezhet");
    expect(sheet.getRow(3).getCell(10).value).toBe("igen");
    const day = sheet.getRow(2).getCell(14);
    expect(day.value).toBeInstanceOf(Date);
    expect((day.value as Date).toISOString()).toBe("2026-12-05T00:00:00.000Z");
    expect(day.numFmt).toBe(HU_DAY);
    expect(typeof sheet.getRow(2).getCell(6).value).toBe("number");
    const machine = (await workbook(await get(`/payments/${batchId}.xlsx?format=machine`))).getWorksheet(
      "payments",
    )!;
    expect(machine.getRow(1).getCell(9).value).toBe("verdict");
    expect(machine.getRow(3).getCell(9).value).toBe("invalid_tax_id");
    expect(machine.getRow(2).getCell(14).numFmt).toBe("yyyy-mm-dd");
  });

  it("writes the change feed in Hungarian (headings in words, days as date cells), and keys for machines", async () => {
    const since = "since=2024-01-01&heading=status,bank_accounts,long_name";
    const person = await csvLines(await get(`/changes.csv?${since}`));
    expect(person[0]).toBe(
      "Nap;Adószám;Vállalkozás;Listák;Rovat;Régi érték;Új érték;A napon belüli sorrend ismeretlen",
    );
    const headings = new Set(person.slice(1).map((l) => l.split(";")[4]));
    expect([...headings].every((h) => ["Bankszámlaszámok", "Név", "Működési állapot"].includes(h!))).toBe(
      true,
    );
    expect(person.slice(1).every((l) => /;(igen|nem)$/.test(l))).toBe(true);
    const machine = await csvLines(await get(`/changes.csv?${since}&format=machine`));
    expect(machine[0]).toBe(
      "change_date;tax_id;business_name;lists;heading;old_value;new_value;order_ambiguous",
    );
    expect(machine.length).toBe(person.length);
    const keys = new Set(machine.slice(1).map((l) => l.split(";")[4]));
    expect([...keys].every((h) => ["bank_accounts", "long_name", "status"].includes(h!))).toBe(true);

    const sheet = (await workbook(await get(`/changes.xlsx?${since}`))).getWorksheet("változások")!;
    expect(sheet.getRow(1).getCell(5).value).toBe("Rovat");
    const first = sheet.getRow(2);
    expect(first.getCell(1).value).toBeInstanceOf(Date);
    expect(first.getCell(1).numFmt).toBe(HU_DAY);
    expect((first.getCell(1).value as Date).toISOString().slice(0, 10)).toBe(machine[1]!.split(";")[0]);
    expect(["Bankszámlaszámok", "Név", "Működési állapot"]).toContain(first.getCell(5).value);
    const keyed = (await workbook(await get(`/changes.xlsx?${since}&format=machine`))).getWorksheet(
      "changes",
    )!;
    expect(keyed.getRow(1).getCell(5).value).toBe("heading");
    expect(keyed.getRow(2).getCell(1).numFmt).toBe("yyyy-mm-dd");
  });

  it("links the machine form beside the person's and refuses an unknown format in Hungarian", async () => {
    const batch = await (await get(`/payments/${batchId}`)).text();
    expect(batch).toContain(`href="/payments/${batchId}.csv?format=machine"`);
    expect(batch).toContain("Programoknak");
    const changes = await (await get("/changes?since=2024-01-01")).text();
    expect(changes).toContain('href="/changes.csv?since=2024-01-01&amp;format=machine"');
    for (const path of [
      `/payments/${batchId}.csv?format=robot`,
      "/changes.xlsx?since=2024-01-01&format=robot",
    ]) {
      const answer = await get(path);
      expect(answer.status, path).toBe(400);
      expect(await answer.text()).toContain("ismeretlen formátum: „robot”");
    }
  });
});
