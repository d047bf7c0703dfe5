/**
 * What the console says that the engines made, in the reader's language, in a real browser
 * (Debian's Chromium through playwright-core): a payment batch uploaded by a Hungarian clerk
 * reads its rows' details and next steps in Hungarian, the same batch in English for an English
 * reader, while the batch's CSV keeps the English the CLI prints; a row recorded before the codes
 * were kept shows its stored English. The rules and list-member forms refuse in the reader's
 * language what the CLI refuses in English.
 */
import { writeFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addConsoleUser } from "../../src/console/users.ts";
import { hashPassword } from "../../src/web/passwords.ts";
import {
  launchBrowser,
  pageAsking,
  screenshotPath,
  signInThroughForm,
  type TestBrowser,
} from "../helpers/browser.ts";
import { startTestConsole, TEST_PASSWORD, type TestConsole } from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

/** A tax id with a wrong check digit, and a well-formed one regwatch has no record of. */
const BAD_TAX_ID = "12345678";
const UNKNOWN_TAX_ID = "12345676";
const ACCOUNT = "11773016-11111018-00000000";

let t: TestDatabase;
let web: TestConsole;
let browser: TestBrowser;
let batchPath: string;

beforeAll(async () => {
  t = await createTestDatabase();
  web = await startTestConsole(t.db);
  const passwordHash = await hashPassword(TEST_PASSWORD);
  await addConsoleUser(t.db.sql, { name: "hanna", role: "admin", passwordHash, locale: "hu" });
  await addConsoleUser(t.db.sql, { name: "edward", role: "admin", passwordHash, locale: "en" });
  batchPath = screenshotPath("stored-texts.csv");
  await writeFile(
    batchPath,
    [
      "Adószám;Számlaszám;Összeg;Pénznem;Közlemény",
      `${BAD_TAX_ID};${ACCOUNT};100,00;HUF;rossz adószám`,
      `${UNKNOWN_TAX_ID};${ACCOUNT};200,00;HUF;ismeretlen`,
    ].join("\r\n"),
  );
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await web?.close();
  await t?.drop();
});

// biome-ignore lint/performance/useDomNodeTextContent: the text as a reader sees it
const text = async (page: Page) => (await page.locator("main").innerText()).replace(/\s+/g, " ");

async function upload(page: Page): Promise<string> {
  await page.goto(`${web.url}/payments`);
  await page.setInputFiles('input[name="file"]', batchPath);
  await Promise.all([
    page.waitForURL(/\/payments\/[0-9a-f-]{36}/),
    page.click('form[action="/payments"] button[type="submit"]'),
  ]);
  return page.url().split("/payments/")[1]!.split("?")[0]!;
}

describe("stored payment texts in the reader's language", () => {
  let batchId: string;

  it("shows a Hungarian clerk the rows' details and next steps in Hungarian", async () => {
    const page = await pageAsking(browser, "en-GB");
    await signInThroughForm(page, web.url, "hanna");
    batchId = await upload(page);
    const batch = await text(page);
    expect(batch).toContain(`a(z) „${BAD_TAX_ID}” adószám ellenőrző számjegye hibás`);
    expect(batch).toContain(`nincs rekord a(z) ${UNKNOWN_TAX_ID} adószámról`);
    expect(batch).toContain("Javítsa az adószámot a szállító törzsadataiból");
    expect(batch).toContain("„Újraellenőrzés” gombot");
    // Nothing of the English detail or step is left on the Hungarian page.
    expect(batch).not.toContain("has a wrong check digit");
    expect(batch).not.toContain("no record of tax id");
    expect(batch).not.toContain("Correct the tax id");
    await page.screenshot({ path: screenshotPath("stored-texts-hu.png"), fullPage: true });
    await page.close();
  });

  it("shows the same batch in English to an English reader, and its CSV keeps the CLI's English", async () => {
    const page = await pageAsking(browser, "hu-HU");
    await signInThroughForm(page, web.url, "edward");
    await page.goto(`${web.url}/payments/${batchId}`);
    const batch = await text(page);
    expect(batch).toContain(`tax id “${BAD_TAX_ID}” has a wrong check digit (expected 6)`);
    expect(batch).toContain(`no record of tax id ${UNKNOWN_TAX_ID}`);
    expect(batch).toContain("Correct the tax id from the supplier's master data");
    expect(batch).not.toContain("ellenőrző számjegye");
    const csv = await (await page.request.get(`${web.url}/payments/${batchId}.csv?format=machine`)).text();
    expect(csv).toContain(`tax id ""${BAD_TAX_ID}"" has a wrong check digit (expected 6)`);
    const [stored] = await t.db.sql<{ detail: string; detailSaid: unknown }[]>`
      select detail, detail_said as "detailSaid" from regwatch.payment_checks
      where batch_id = ${batchId}::uuid and line = 2`;
    expect(stored!.detail).toBe(`tax id "${BAD_TAX_ID}" has a wrong check digit (expected 6)`);
    const said = typeof stored!.detailSaid === "string" ? JSON.parse(stored!.detailSaid) : stored!.detailSaid;
    expect(said).toEqual([{ code: "taxid.checkDigit", values: { value: BAD_TAX_ID, expected: "6" } }]);
    await page.close();
  });

  it("shows a row recorded before the codes were kept with its stored English", async () => {
    await t.db.sql`
      update regwatch.payment_checks set detail = 'an old English detail', detail_said = null,
        next_step = 'an old English step', next_step_said = null
      where batch_id = ${batchId}::uuid and line = 3`;
    const page = await pageAsking(browser, "hu-HU");
    await signInThroughForm(page, web.url, "hanna");
    await page.goto(`${web.url}/payments/${batchId}`);
    const batch = await text(page);
    expect(batch).toContain("an old English detail");
    expect(batch).toContain("an old English step");
    expect(batch).toContain("ellenőrző számjegye hibás");
    await page.close();
  });
});

describe("shared validation in the reader's language", () => {
  it("refuses a rule and a list member in Hungarian, and in English for an English reader", async () => {
    const hu = await pageAsking(browser, "en-GB");
    await signInThroughForm(hu, web.url, "hanna");
    await hu.goto(`${web.url}/rules`);
    await hu.fill('form[action="/rules"] input[name="name"]', "partnerek");
    await hu.selectOption('form[action="/rules"] select[name="channel"]', "webhook");
    await hu.fill('form[action="/rules"] input[name="target"]', "nem cím");
    await hu.click('form[action="/rules"] button[type="submit"]');
    await hu.waitForSelector("section.problems");
    expect(await text(hu)).toContain("Cél: a(z) „nem cím” nem webcím");
    await hu.goto(`${web.url}/lists`);
    await hu.fill('form[action="/lists/members"] input[name="list"]', "szallitok");
    await hu.fill('form[action="/lists/members"] input[name="tax_id"]', BAD_TAX_ID);
    await hu.click('form[action="/lists/members"] button[type="submit"]');
    await hu.waitForLoadState();
    const refused = await text(hu);
    expect(refused).toContain(`a(z) „${BAD_TAX_ID}” adószám ellenőrző számjegye hibás`);
    expect(refused).not.toContain("wrong check digit");
    await hu.close();

    const en = await pageAsking(browser, "hu-HU");
    await signInThroughForm(en, web.url, "edward");
    await en.goto(`${web.url}/rules`);
    await en.fill('form[action="/rules"] input[name="name"]', "partners");
    await en.selectOption('form[action="/rules"] select[name="channel"]', "webhook");
    await en.fill('form[action="/rules"] input[name="target"]', "not an address");
    await en.click('form[action="/rules"] button[type="submit"]');
    await en.waitForSelector("section.problems");
    expect(await text(en)).toContain("Target: “not an address” is not a web address");
    expect(await t.db.sql`select 1 from regwatch.alert_rules`).toHaveLength(0);
    await en.close();
  });
});
