/**
 * The console in two languages, in a real browser (Debian's Chromium through playwright-core):
 * a user whose language is hu reads Hungarian words, money and zoned times whatever the browser
 * asks; a user with no language of their own gets the browser's Accept-Language (en-GB); the
 * header's switch changes the language and stores it on the user; a signed-out browser is
 * answered in its Accept-Language and keeps the sign-in page's choice in a cookie. Headings,
 * statuses and verdicts read as words with their stored keys on hover; a heading no catalog
 * knows shows its key. Screenshots in test-output/.
 */
import { mkdir } from "node:fs/promises";
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
import { createUser, startTestConsole, TEST_PASSWORD, type TestConsole } from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { NEW_HEADING, seedLanguageWorld, TAX_ID } from "./i18n-fixture.ts";

let t: TestDatabase;
let web: TestConsole;
let browser: TestBrowser;
let world: { alertId: number; batchId: string };

beforeAll(async () => {
  t = await createTestDatabase();
  world = await seedLanguageWorld(t.db);
  web = await startTestConsole(t.db);
  await addConsoleUser(t.db.sql, {
    name: "hanna",
    role: "reviewer",
    passwordHash: await hashPassword(TEST_PASSWORD),
    locale: "hu",
  });
  await createUser(t.db, "edward", "reviewer");
  browser = await launchBrowser();
  await mkdir(screenshotPath(""), { recursive: true });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await web?.close();
  await t?.drop();
});

// biome-ignore lint/performance/useDomNodeTextContent: the text as a reader sees it, spaces between cells included
const text = async (page: Page) => (await page.locator("main").innerText()).replace(/\s+/g, " ");

describe("a console in the reader's language", () => {
  it("speaks Hungarian to a user whose language is hu, even to an English browser", async () => {
    const page = await pageAsking(browser, "en-GB,en;q=0.9");
    await signInThroughForm(page, web.url, "hanna");
    expect(await page.locator("html").getAttribute("lang")).toBe("hu");
    expect(await page.locator("header nav").textContent()).toContain("Beérkezett");
    const inbox = await text(page);
    expect(inbox).toContain("Beérkezett riasztások");
    // A status change reads as one: the heading's word, then the statuses as words.
    expect(inbox).toMatch(/Működési állapot: működő\s*→\s*megszűnt/);
    const accounts = page.locator("strong.term", { hasText: "Bankszámlaszámok" });
    expect(await accounts.getAttribute("title")).toBe("bank_accounts");
    // A heading no catalog knows shows its key.
    expect(await page.locator("strong.term", { hasText: NEW_HEADING }).count()).toBe(1);
    expect(inbox).toContain("2026. 11. 26.");

    await page.goto(`${web.url}/payments/${world.batchId}`);
    const batch = await text(page);
    expect(batch).toMatch(/1\s234\s567,00\sFt/);
    // The row and the totals say the amount alike, with the currency's two decimals.
    const amounts = await page.locator("td.amount").allInnerTexts();
    expect(amounts.map((a) => a.split("\n")[0]!.replace(/\s/g, " "))).toEqual([
      "1 234 567,00 Ft",
      "1 234 567,00 Ft",
      "1 234 567,00 Ft",
    ]);
    // The time the batch was checked, with its zone.
    expect(batch).toMatch(/Ellenőrizve: \d{4}\. \d{2}\. \d{2}\. \d{2}:\d{2} (CET|CEST), ellenőrizte: vera/);
    const verdict = page.locator("span.verdict").first();
    expect(await verdict.textContent()).toBe("a számlát nemrég jelentették be");
    expect(await verdict.getAttribute("title")).toBe("account_recently_changed");
    await page.screenshot({ path: screenshotPath("console-batch-hu.png"), fullPage: true });

    await page.goto(`${web.url}/runs`);
    const runs = await text(page);
    expect(runs).toContain("szinkronizálás");
    expect(await page.locator("dt", { hasText: "rögzített változások" }).getAttribute("title")).toBe(
      "changesWritten",
    );
    expect(runs).toMatch(/\d{4}\. \d{2}\. \d{2}\. \d{2}:\d{2} (CET|CEST)/);
    // Figures in their words, numbers as Hungarian writes them (grouped from five digits), flags as words.
    const figures = (await page.locator("dl.stats").textContent()) ?? "";
    expect(figures).toContain("1234");
    expect(figures).toContain("próbafuttatás");
    expect(figures).not.toContain("false");
    await page.close();
  });

  it("follows the browser's Accept-Language for a user without a language, and switches from the header", async () => {
    const page = await pageAsking(browser, "en-GB,hu;q=0.5");
    await signInThroughForm(page, web.url, "edward");
    expect(await page.locator("html").getAttribute("lang")).toBe("en");
    const inbox = await text(page);
    expect(inbox).toMatch(/Status: operating\s*→\s*ceased/);
    expect(inbox).toContain("26 Nov 2026");

    await page.goto(`${web.url}/payments/${world.batchId}`);
    const batch = await text(page);
    expect(batch).toMatch(/HUF\s1,234,567\.00/);
    expect(batch).toMatch(/Checked \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} (CET|CEST) by vera/);

    await page.goto(`${web.url}/businesses/${TAX_ID}`);
    await page.selectOption("form.language select", "hu");
    await Promise.all([
      page.waitForURL(`${web.url}/businesses/${TAX_ID}`),
      page.click("form.language button"),
    ]);
    expect(await page.locator("html").getAttribute("lang")).toBe("hu");
    expect(await text(page)).toContain("Idővonal");
    const [stored] = await t.db.sql<{ locale: string | null }[]>`
      select locale from ${t.db.sql.t.console_users} where name = 'edward'`;
    expect(stored?.locale).toBe("hu");
    await page.screenshot({ path: screenshotPath("console-business-hu.png"), fullPage: true });
    await page.close();
  });

  it("answers a signed-out browser in its language and keeps the sign-in page's choice", async () => {
    const page = await pageAsking(browser, "hu-HU,hu;q=0.9,en;q=0.5");
    await page.goto(`${web.url}/login`);
    expect(await page.locator("html").getAttribute("lang")).toBe("hu");
    expect(await page.locator("h1").textContent()).toBe("Bejelentkezés a regwatch-ba");
    await page.selectOption("form.language select", "en");
    await Promise.all([page.waitForURL(`${web.url}/login`), page.click("form.language button")]);
    expect(await page.locator("html").getAttribute("lang")).toBe("en");
    expect(await page.locator("h1").textContent()).toBe("Sign in to regwatch");
    await page.close();
  });
});
