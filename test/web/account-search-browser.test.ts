/**
 * The account switcher for a user given 300 of 1,000 accounts, in a real browser (Debian's
 * Chromium) with the console's script blocked and driven by the keyboard alone: type part of a
 * name in the header's search box, Enter, Tab to the account found, Enter, and the inbox shows
 * that account. The search page and the header pass axe-core's WCAG 2.1 AA rules in English and
 * Hungarian. An admin of the same 300 adds a user on /users by typing account names into the add
 * form's box, by keyboard, and that page passes the same rules. Screenshots in test-output/.
 */
import { mkdir } from "node:fs/promises";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantAccounts } from "../../src/console/access.ts";
import type { Database } from "../../src/db/connect.ts";
import { blockingViolations } from "../helpers/axe.ts";
import { launchBrowser, screenshotPath, signInThroughForm, type TestBrowser } from "../helpers/browser.ts";
import { createUser, startTestConsole, type TestConsole } from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { openAccount, seedAlerts, writeAccountsFile } from "./accounts-fixture.ts";

const name = (i: number) => `shop_${String(i).padStart(4, "0")}`;
const ALL = Array.from({ length: 1000 }, (_, i) => name(i + 1));

let t: TestDatabase;
let opened: Database[] = [];
let web: TestConsole;
let browser: TestBrowser;

beforeAll(async () => {
  t = await createTestDatabase();
  opened = [await openAccount(t.url, name(1)), await openAccount(t.url, name(217))];
  await seedAlerts(opened[0]!, [{ taxId: "10101010", name: "First Shop Kft" }]);
  await seedAlerts(opened[1]!, [{ taxId: "21721721", name: "Shop Two Seventeen Zrt" }]);
  web = await startTestConsole(t.db, { env: { REGWATCH_ACCOUNTS_FILE: writeAccountsFile(ALL) } });
  await createUser(t.db, "lea", "reader");
  await createUser(t.db, "hedvig", "reader", undefined, "hu");
  await createUser(t.db, "ada", "admin");
  await grantAccounts(t.db.sql, "lea", ALL.slice(0, 300));
  await grantAccounts(t.db.sql, "hedvig", ALL.slice(0, 300));
  await grantAccounts(t.db.sql, "ada", ALL.slice(0, 300));
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await web?.close();
  for (const db of opened) await db.close();
  await t?.drop();
});

/** The focused element's id or text. */
function focusedText(page: Page, what: "id" | "text"): Promise<string> {
  return page.locator("body").evaluate((body, w) => {
    const el = body.ownerDocument.activeElement ?? body;
    return w === "id" ? el.id : (el.textContent ?? "").trim();
  }, what);
}

describe("the account search in a browser running no script, by keyboard", () => {
  it("finds an account among hundreds and switches to it", async () => {
    const page = await browser.context.newPage();
    await page.route("**/static/console.js", (route) => route.abort());
    await signInThroughForm(page, web.url, "lea");
    const main = page.locator("main");
    expect(await main.textContent()).toContain("First Shop Kft");
    expect(await page.locator("select#nav-account").count()).toBe(0);

    // The header's box, reached by its label; Enter submits the plain GET form.
    await page.getByRole("searchbox", { name: "Switch to another account" }).focus();
    await page.keyboard.type("21");
    await Promise.all([page.waitForURL(/\/account\?q=21/), page.keyboard.press("Enter")]);
    const buttons = page.locator("ul.account-results button");
    expect(await buttons.allInnerTexts()).toEqual(
      ALL.slice(0, 300)
        .filter((n) => n.includes("21"))
        .slice(0, 20),
    );
    expect(await page.locator("#account-count").textContent()).toContain("of your 300 accounts match “21”");

    // The page's own box has the focus: narrow the search, then Tab past its Find button.
    expect(await focusedText(page, "id")).toBe("account-q");
    await page.keyboard.press("End");
    await page.keyboard.type("7");
    await Promise.all([page.waitForURL(/\/account\?q=217/), page.keyboard.press("Enter")]);
    expect(await buttons.allInnerTexts()).toEqual([name(217)]);
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    expect(await focusedText(page, "text")).toBe(name(217));
    await mkdir(screenshotPath(""), { recursive: true });
    await page.screenshot({ path: screenshotPath("console-account-search.png"), fullPage: true });
    await Promise.all([page.waitForURL(`${web.url}/`), page.keyboard.press("Enter")]);
    const after = (await main.textContent()) ?? "";
    expect(after).toContain("Shop Two Seventeen Zrt");
    expect(after).not.toContain("First Shop Kft");
    expect(await page.locator("header.top").textContent()).toContain(`Account ${name(217)}`);
    await page.close();
  });

  it.each([
    { user: "lea", locale: "en" },
    { user: "hedvig", locale: "hu" },
  ])("has no serious or critical WCAG 2.1 AA violation in $locale", async ({ user, locale }) => {
    const page = await browser.context.newPage();
    await signInThroughForm(page, web.url, user);
    await page.goto(`${web.url}/account?q=shop_01`);
    expect(await page.locator("html").getAttribute("lang")).toBe(locale);
    expect(await page.locator("ul.account-results button").count()).toBe(20);
    expect(await blockingViolations(page)).toEqual([]);
    await page.close();
  });
});

describe("the users page of an admin given 300 of 1,000 accounts, in a browser running no script", () => {
  it("adds a user with typed account names, by keyboard, and passes WCAG 2.1 AA", async () => {
    const page = await browser.context.newPage();
    await page.route("**/static/console.js", (route) => route.abort());
    await signInThroughForm(page, web.url, "ada");
    await page.goto(`${web.url}/users`);
    const form = page.locator('form[action="/users/add"]');
    expect(await form.locator('input[name="accounts"]').count()).toBe(0);
    expect(await blockingViolations(page)).toEqual([]);

    await form.getByRole("textbox", { name: "Name", exact: true }).focus();
    await page.keyboard.type("ines");
    await form.getByRole("textbox", { name: "Accounts to give" }).focus();
    await page.keyboard.type(`${name(12)}, ${name(300)}`);
    await page.keyboard.press("Enter");
    await page.keyboard.type(name(5));
    await page.screenshot({ path: screenshotPath("console-users-typed-accounts.png"), fullPage: true });
    await Promise.all([
      page.waitForLoadState("load"),
      form.getByRole("button", { name: "Add the user" }).press("Enter"),
    ]);
    expect(await page.locator("code.new-password").count()).toBe(1);
    expect(await page.locator('tr[data-user="ines"]').textContent()).toContain(
      `${name(5)}, ${name(12)}, ${name(300)}`,
    );
    await page.close();
  });
});
