/**
 * A damaged workbook (a shared string with an undefined entity) is refused as a bad file: the
 * console's upload answers 400 naming what is wrong in the reader's language, and `payments check`
 * exits 64 with the same reason; neither leaves a batch row. A sound workbook is read by both.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { createUser, type SignedIn, signIn, startTestConsole, type TestConsole } from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { workbookParts, writeStoredZip } from "../helpers/stored-zip.ts";

const ACCOUNT = "11773016-11111018-00000000";
const sst = (items: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${items.length}" uniqueCount="${items.length}">${items.map((s) => `<si><t>${s}</t></si>`).join("")}</sst>`;

let t: TestDatabase;
let web: TestConsole;
let reviewer: SignedIn;
let dir: string;
let damaged: string;

beforeAll(async () => {
  t = await createTestDatabase();
  web = await startTestConsole(t.db);
  await createUser(t.db, "vera", "reviewer");
  reviewer = await signIn(web.url, "vera");
  dir = await mkdtemp(path.join(tmpdir(), "regwatch-damaged-"));
  damaged = path.join(dir, "damaged.xlsx");
  await writeStoredZip(damaged, workbookParts(sst(["bank_account", "amo&foo;unt", "reference"]), 3));
});
afterAll(async () => {
  await web?.close();
  await t?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function upload(bytes: Buffer, name: string, language: string): Promise<Response> {
  const form = new FormData();
  form.append("_csrf", reviewer.csrf);
  form.append("file", new Blob([bytes]), name);
  return fetch(`${web.url}/payments`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: reviewer.cookie, "accept-language": language },
    body: form,
  });
}

const batches = async () =>
  (await t.db.sql<{ n: number }[]>`select count(*)::int as n from regwatch.payment_batches`)[0]!.n;

describe("a damaged workbook", () => {
  it("is a 400 naming what is wrong, in English and in Hungarian, with no batch row", async () => {
    const english = await upload(await readFile(damaged), "damaged.xlsx", "en");
    const page = await english.text();
    expect(english.status).toBe(400);
    expect(page).toContain("damaged.xlsx: the workbook is damaged: a part of it cannot be read (");
    expect(page).toContain("undefined entity");
    const hungarian = await upload(await readFile(damaged), "damaged.xlsx", "hu");
    expect(hungarian.status).toBe(400);
    expect(await hungarian.text()).toContain("damaged.xlsx: a munkafüzet sérült: egy része nem olvasható (");
    expect(await batches()).toBe(0);
  });

  it("makes payments check exit 64 with the reason, nothing checked", async () => {
    const result = await runCli(["payments", "check", damaged, "--record"], { DATABASE_URL: t.url });
    expect(result.code).toBe(64);
    expect(result.stderr).toContain(
      `cannot read ${damaged}: the workbook is damaged: a part of it cannot be read (`,
    );
    expect(result.stderr).toContain("undefined entity");
    expect(result.stderr).not.toMatch(/at .*\.js:\d+/);
    expect(await batches()).toBe(0);
  });

  it("while a sound workbook is read by payments check through its first sheet", async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("Utalások");
    sheet.addRow(["bank_account", "amount", "reference"]);
    sheet.addRow([ACCOUNT, 100, "R1"]);
    const sound = path.join(dir, "sound.xlsx");
    await workbook.xlsx.writeFile(sound);
    const result = await runCli(["payments", "check", sound, "--json"], { DATABASE_URL: t.url });
    expect(result.stderr).not.toContain("problem");
    expect([0, 2]).toContain(result.code);
    expect(result.stdout).toContain(ACCOUNT);
  });
});
