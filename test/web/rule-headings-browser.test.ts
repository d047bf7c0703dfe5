/**
 * The rule form in Hungarian, in a real browser (issue 49, point 5): an admin whose browser asks
 * for Hungarian ticks "Működési állapot" and types "bankszámlaszámok", the rule is stored with
 * the keys `status` and `bank_accounts` and its page names them in Hungarian; a typed text that
 * is no heading's name is refused in Hungarian, the form keeping what was typed. Screenshot in
 * test-output/.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  launchBrowser,
  pageAsking,
  screenshotPath,
  signInThroughForm,
  type TestBrowser,
} from "../helpers/browser.ts";
import { createUser, startTestConsole, type TestConsole } from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

let t: TestDatabase;
let web: TestConsole;
let browser: TestBrowser;
let page: Page;

// biome-ignore lint/performance/useDomNodeTextContent: the text as a reader sees it
const mainText = async () => (await page.locator("main").innerText()).replace(/\s+/g, " ");
const form = 'form[action="/rules"]';

beforeAll(async () => {
  t = await createTestDatabase();
  web = await startTestConsole(t.db);
  await createUser(t.db, "magda", "admin");
  browser = await launchBrowser();
  page = await pageAsking(browser, "hu-HU,hu;q=0.9");
  await signInThroughForm(page, web.url, "magda");
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await web?.close();
  await t?.drop();
});

describe("a rule by the headings the registry sends, in Hungarian", () => {
  it("refuses a typed text that is no heading's name, in Hungarian, and keeps the form", async () => {
    await page.goto(`${web.url}/rules`);
    await page.fill(`${form} input[name="name"]`, "állapotfigyelés");
    await page.selectOption(`${form} select[name="channel"]`, "notify");
    await page.fill(`${form} input[name="target"]`, "regwatch_browser");
    await page.fill(`${form} input[name="other_headings"]`, "Működési állapota");
    await page.click(`${form} button[type="submit"]`);
    await page.waitForSelector(".problems");
    const text = await mainText();
    expect(text).toContain("A szabályt nem mentettük:");
    expect(text).toContain("„Működési állapota”: nem rovatnév és nem is rovatkulcs");
    expect(await page.inputValue(`${form} input[name="other_headings"]`)).toBe("Működési állapota");
    expect(await t.db.sql`select 1 from regwatch.alert_rules`).toHaveLength(0);
  });

  it("ticks Működési állapot, types a Hungarian name, and stores the keys", async () => {
    await page.getByLabel("Működési állapot", { exact: true }).check();
    await page.fill(`${form} input[name="other_headings"]`, "bankszámlaszámok");
    await Promise.all([page.waitForURL(/\/rules\?done=added/), page.click(`${form} button[type="submit"]`)]);
    const text = await mainText();
    expect(text).toContain("A(z) állapotfigyelés szabályt felvettük");
    expect(text).toContain("Működési állapot (status)");
    await page.screenshot({ path: screenshotPath("rule-headings-hu.png"), fullPage: true });
    const rows = await t.db.sql<{ headings: string[] }[]>`select headings from regwatch.alert_rules`;
    expect(rows).toEqual([{ headings: ["status", "bank_accounts"] }]);
    await page.goto(`${web.url}/rules/${encodeURIComponent("állapotfigyelés")}`);
    expect(await mainText()).toContain("Működési állapot, Bankszámlaszámok");
    expect(await page.getByLabel("Működési állapot", { exact: true }).isChecked()).toBe(true);
  });
});
