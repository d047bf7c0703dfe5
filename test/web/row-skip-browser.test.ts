/**
 * Issue 49 point 9, in a real browser (Debian's Chromium through playwright-core): on the inbox
 * and on a payment batch the first Tab lands on "Ugrás az első sorra", which takes the focus to
 * the first row's first action; acknowledging one alert from the keyboard takes one Tab and two
 * Enters (it took 48 Tabs when the action bar above the rows was the only way).
 */
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
import { seedLanguageWorld } from "./i18n-fixture.ts";

let t: TestDatabase;
let web: TestConsole;
let browser: TestBrowser;
let page: Page;
let world: { alertId: number; batchId: string };

beforeAll(async () => {
  t = await createTestDatabase();
  world = await seedLanguageWorld(t.db);
  web = await startTestConsole(t.db);
  const passwordHash = await hashPassword(TEST_PASSWORD);
  await addConsoleUser(t.db.sql, { name: "hanna", role: "reviewer", passwordHash, locale: "hu" });
  browser = await launchBrowser();
  page = await pageAsking(browser, "hu-HU");
  await signInThroughForm(page, web.url, "hanna");
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await web?.close();
  await t?.drop();
});

/** What has the focus: its tag, id and text, whether it shows, and its row's place in the table. */
function focused() {
  return page.locator("body").evaluate((body) => {
    const el = (body.ownerDocument.activeElement ?? body) as typeof body;
    const box = el.getBoundingClientRect();
    const row = el.closest("tbody tr");
    return {
      tag: el.tagName.toLowerCase(),
      id: el.id,
      text: (el.textContent ?? "").trim(),
      onScreen: box.width > 0 && box.height > 0 && box.top >= 0,
      firstRow: row !== null && row === row.closest("table")?.querySelector("tbody tr"),
    };
  });
}

/** Presses Tab until the skip link to the first row has the focus; the number of Tabs it took. */
async function tabsToFirstRowLink(limit = 60): Promise<number> {
  for (let tabs = 1; tabs <= limit; tabs += 1) {
    await page.keyboard.press("Tab");
    if ((await focused()).text === "Ugrás az első sorra") return tabs;
  }
  throw new Error(`no skip link to the first row within ${limit} Tabs`);
}

describe("a skip link to the first row", () => {
  it("acknowledges one alert from the inbox with one Tab and two Enters", async () => {
    await page.goto(`${web.url}/`);
    const tabs = await tabsToFirstRowLink();
    expect(tabs).toBe(1);
    expect(await focused()).toMatchObject({ tag: "a", onScreen: true });
    await page.screenshot({ path: screenshotPath("keyboard-first-row-link.png") });
    await page.keyboard.press("Enter");
    expect(await focused()).toMatchObject({ tag: "button", id: "first-row", text: "Tudomásul veszem" });
    await Promise.all([page.waitForURL(/done=ack/), page.keyboard.press("Enter")]);
    expect(tabs).toBeLessThanOrEqual(3);
    expect(await page.locator('main [role="status"]').textContent()).toContain("tudomásul vette");
    const [stored] = await t.db.sql<{ status: string; by: string }[]>`
      select status, status_by as by from ${t.db.sql.t.alerts} where id = ${world.alertId}`;
    expect(stored).toEqual({ status: "acknowledged", by: "hanna" });

    // Where no row is shown, no link to one: the first Tab skips to the page's content.
    await page.goto(`${web.url}/?status=resolved`);
    await page.keyboard.press("Tab");
    expect((await focused()).text).toBe("Ugrás az oldal tartalmára");
  });

  it("takes a batch's reader to its first row", async () => {
    await page.goto(`${web.url}/payments/${world.batchId}`);
    expect(await tabsToFirstRowLink()).toBe(1);
    await page.keyboard.press("Enter");
    expect(await focused()).toMatchObject({ tag: "a", id: "first-row", firstRow: true });
    await page.keyboard.press("Tab");
    expect((await focused()).firstRow).toBe(true);
  });
});
