/**
 * Issue 34, point 6 in Chromium at 1280x800: a clerk uploads an export whose header regwatch does
 * not know, picks the columns from the file's first rows, lands on the batch page, which fits the
 * screen (document.documentElement.scrollWidth <= 1280), and presses "Check again".
 */
import { mkdir, writeFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, screenshotPath, type TestBrowser } from "../helpers/browser.ts";
import { createUser, TEST_PASSWORD } from "../helpers/console.ts";
import { type PagesWorld, startPagesWorld } from "./pages-fixture.ts";

describe("the payment batch in a 1280 px browser", () => {
  let w: PagesWorld;
  let browser: TestBrowser;
  let page: Page;
  let file: string;

  beforeAll(async () => {
    w = await startPagesWorld({ seed: 15 });
    await createUser(w.t.db, "vera", "reviewer");
    const accounts = await w.t.db.sql<{ tax_id: string; bank_account: string }[]>`
      select distinct on (v.tax_id) v.tax_id, v.bank_account from regwatch.v_bank_accounts v
      where v.tax_id = any(${w.taxIds}::text[]) order by v.tax_id, v.bank_account limit 4`;
    await mkdir(screenshotPath(""), { recursive: true });
    file = screenshotPath("odd-header.csv");
    await writeFile(
      file,
      [
        "Partner számlaszáma;Partner adószám;Utalás összege;Kedvezményezett megnevezése;Közlemény",
        ...accounts.map(
          (a, i) =>
            `${a.bank_account};${a.tax_id}-2-41;${i + 1}250000,00;Nagyon Hosszú Nevű Kereskedelmi és Szolgáltató Korlátolt Felelősségű Társaság ${i};Számla ${"X".repeat(60)}`,
        ),
        "11773016-11111018;12345678;99,00;Ismeretlen;rossz adószám",
      ].join("\r\n"),
    );
    w.web.setNow(new Date());
    browser = await launchBrowser();
    page = await browser.context.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await w?.close();
  });

  it("maps the columns of an unknown header, shows a batch that fits 1280 px, and checks it again", async () => {
    await page.goto(`${w.web.url}/login`);
    await page.fill('input[name="username"]', "vera");
    await page.fill('input[name="password"]', TEST_PASSWORD);
    await Promise.all([page.waitForURL(`${w.web.url}/`), page.click('button[type="submit"]')]);
    await page.goto(`${w.web.url}/payments`);
    await page.setInputFiles('input[type="file"]', file);
    await Promise.all([page.waitForLoadState("load"), page.click('form.upload button[type="submit"]')]);
    await page.waitForSelector("form.columns");
    expect(await page.locator("table.preview tbody tr").count()).toBeGreaterThan(0);
    await page.selectOption('select[name="bank_account"]', "Partner számlaszáma");
    await page.selectOption('select[name="tax_id"]', "Partner adószám");
    await page.selectOption('select[name="amount"]', "Utalás összege");
    await page.selectOption('select[name="name"]', "Kedvezményezett megnevezése");
    await Promise.all([page.waitForURL(/\/payments\/[0-9a-f-]{36}$/), page.click("form.columns button")]);
    const first = page.url();
    expect(await page.locator("table.payments tbody tr").count()).toBe(5);
    const width = await page.evaluate(
      () =>
        (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document
          .documentElement.scrollWidth,
    );
    await page.screenshot({ path: screenshotPath("payment-batch-1280.png"), fullPage: true });
    expect(width).toBeLessThanOrEqual(1280);
    const body = await page.textContent("table.payments");
    expect(body).not.toMatch(/regwatch (watch|payments|lookup)|--online/);
    await Promise.all([
      page.waitForURL((url) => url.toString() !== first),
      page.click("form.recheck button"),
    ]);
    expect(await page.locator("table.payments tbody tr").count()).toBe(5);
  });
});
