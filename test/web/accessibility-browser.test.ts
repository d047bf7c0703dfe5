/**
 * Issue 34 point 7 in a real browser (Debian's Chromium through playwright-core): every console
 * page, filled by a sync against the emulator's realistic world and a payment batch uploaded
 * through the form, passes axe-core's WCAG 2.1 AA rules with no serious or critical violation,
 * in English and in Hungarian. A failure lists each violation's rule and the elements it found.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blockingViolations } from "../helpers/axe.ts";
import {
  launchBrowser,
  pageAsking,
  screenshotPath,
  signInThroughForm,
  type TestBrowser,
} from "../helpers/browser.ts";
import { seedAdminPages } from "./pages-admins.ts";
import { type PagesWorld, startPagesWorld } from "./pages-fixture.ts";

const LOCALES = [
  { locale: "en", admin: "ada" },
  { locale: "hu", admin: "hanna" },
] as const;

let w: PagesWorld;
let browser: TestBrowser;
let files: { batch: string; unknownHeader: string };
/** What the pages are about, read from the synced world. */
let facts: { alertId: string; taxId: string; listName: string; ruleName: string; nameWord: string };

beforeAll(async () => {
  w = await startPagesWorld({ seed: 15 });
  const seeded = await seedAdminPages(w, LOCALES);
  const alert = { id: seeded.alertId, tax_id: seeded.taxId };
  const [profile] = await w.t.db.sql<{ name: string }[]>`
    select name from regwatch.business_profiles where tax_id = ${alert.tax_id}`;
  const accounts = await w.t.db.sql<{ tax_id: string; bank_account: string }[]>`
    select distinct on (tax_id) tax_id, bank_account from regwatch.v_bank_accounts
    where tax_id = any(${w.taxIds}::text[]) order by tax_id, bank_account limit 3`;
  facts = {
    alertId: alert.id,
    taxId: alert.tax_id,
    listName: seeded.listName,
    ruleName: "every change",
    nameWord: profile!.name.split(/\s+/).find((word) => word.length >= 4) ?? profile!.name,
  };
  await mkdir(screenshotPath(""), { recursive: true });
  files = { batch: screenshotPath("a11y-batch.csv"), unknownHeader: screenshotPath("a11y-columns.csv") };
  await writeFile(
    files.batch,
    [
      "Adószám;Számlaszám;Összeg;Pénznem;Közlemény",
      ...accounts.map((a, i) => `${a.tax_id};${a.bank_account};${i + 1}.250,00;HUF;Számla ${i + 1}`),
      "12345678;11773016-11111018;99,00;HUF;rossz adószám",
    ].join("\r\n"),
  );
  await writeFile(files.unknownHeader, "Kedvezményezett;Azonosító;Érték\r\nMinta Kft.;12345676;100\r\n");
  // A browser drops a cookie that expired by its own clock: the console's clock is the real one here.
  w.web.setNow(new Date());
  browser = await launchBrowser();
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await w?.close();
});

/** Checks the open page and names it in the failure: the list printed is what to fix. */
async function expectAccessible(page: Page, locale: string, shot: string): Promise<void> {
  expect(await page.locator("html").getAttribute("lang")).toBe(locale);
  await page.screenshot({ path: screenshotPath(`a11y-${shot}-${locale}.png`), fullPage: true });
  expect(await blockingViolations(page), `${page.url()} (${locale})`).toEqual([]);
}

describe("the sign-in page", () => {
  it.each(LOCALES)("has no serious or critical WCAG 2.1 AA violation in $locale", async ({ locale }) => {
    const page = await pageAsking(browser, locale === "hu" ? "hu-HU,hu;q=0.9" : "en-GB,en;q=0.9");
    await page.goto(`${w.web.url}/login`);
    await expectAccessible(page, locale, "login");
    // The form again, saying the name or password was wrong.
    await page.fill('input[name="username"]', "nobody");
    await page.fill('input[name="password"]', "wrong");
    await page.click('form[action="/login"] button');
    await page.waitForSelector('main [role="alert"]');
    await expectAccessible(page, locale, "login-refused");
    await page.close();
  });
});

/** Every page a signed-in admin reaches by a link, with real data on it. */
const PAGES: { name: string; path: () => string; has: string }[] = [
  { name: "inbox with alerts", path: () => "/", has: "tr.change-row" },
  { name: "an inbox filtered to nothing", path: () => "/?status=snoozed", has: "main .empty-reason" },
  { name: "an alert", path: () => `/alerts/${facts.alertId}`, has: "main h1" },
  { name: "a business", path: () => `/businesses/${facts.taxId}`, has: "ul.timeline li" },
  {
    name: "a business as of a day",
    path: () => `/businesses/${facts.taxId}?as_of=2024-02-01`,
    has: "main h1",
  },
  { name: "a business the registry has no record of", path: () => "/businesses/12345676", has: "main h1" },
  { name: "changes", path: () => "/changes?since=2024-01-01", has: "table.changes tbody tr" },
  { name: "payments upload form", path: () => "/payments", has: "form.upload" },
  { name: "coverage", path: () => "/coverage?weeks=10&end=2024-03-09", has: "table.calendar td.day-covered" },
  { name: "runs", path: () => "/runs", has: "main h1" },
  { name: "lists", path: () => "/lists", has: "main h1" },
  { name: "a list's members", path: () => `/lists/${facts.listName}`, has: "main table tbody tr" },
  { name: "rules", path: () => "/rules", has: "main table tbody tr" },
  { name: "a rule", path: () => `/rules/${encodeURIComponent(facts.ruleName)}`, has: "main h1" },
  { name: "users", path: () => "/users", has: "main table tbody tr" },
  {
    name: "search results",
    path: () => `/search?q=${encodeURIComponent(facts.nameWord)}`,
    has: "ul.hits li",
  },
  { name: "a page that does not exist", path: () => "/alerts/999999999", has: "main" },
];

describe.each(LOCALES)("every console page in $locale", ({ locale, admin }) => {
  let page: Page;
  beforeAll(async () => {
    page = await pageAsking(browser, locale === "hu" ? "hu-HU,hu;q=0.9" : "en-GB,en;q=0.9");
    await signInThroughForm(page, w.web.url, admin);
  });
  afterAll(async () => {
    await page?.close();
  });

  it.each(PAGES)(
    "$name has no serious or critical WCAG 2.1 AA violation",
    async ({ name, path: at, has }) => {
      await page.goto(`${w.web.url}${at()}`);
      expect(await page.locator(has).count(), `${name}: ${has}`).toBeGreaterThan(0);
      await expectAccessible(page, locale, name.replace(/\W+/g, "-"));
    },
  );

  it("a payment batch uploaded through the form, and the column choice for an unknown header", async () => {
    await page.goto(`${w.web.url}/payments`);
    await page.setInputFiles('input[type="file"]', files.batch);
    await Promise.all([
      page.waitForURL(/\/payments\/[0-9a-f-]{36}$/),
      page.click('form.upload button[type="submit"]'),
    ]);
    expect(path.basename(new URL(page.url()).pathname)).toMatch(/^[0-9a-f-]{36}$/);
    expect(await page.locator("table.payments tbody tr").count()).toBeGreaterThan(1);
    await expectAccessible(page, locale, "payment-batch");

    await page.goto(`${w.web.url}/payments`);
    await page.setInputFiles('input[type="file"]', files.unknownHeader);
    await page.click('form.upload button[type="submit"]');
    await page.waitForSelector("form.columns");
    await expectAccessible(page, locale, "payment-columns");
  });
});
