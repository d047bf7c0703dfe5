/**
 * The account switcher in a real browser (Debian's Chromium) with the console's one script
 * blocked (pages carry no inline script, so none runs at all): the
 * header names the account shown, the select lists only the user's accounts, and choosing one
 * and pressing Switch shows the other account's inbox. Screenshot in test-output/.
 */
import { mkdir } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantAccounts } from "../../src/console/access.ts";
import type { Database } from "../../src/db/connect.ts";
import { launchBrowser, screenshotPath, type TestBrowser } from "../helpers/browser.ts";
import { createUser, startTestConsole, TEST_PASSWORD, type TestConsole } from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { openAccount, seedAlerts, writeAccountsFile } from "./accounts-fixture.ts";

let t: TestDatabase;
let accounts: Database[] = [];
let web: TestConsole;
let browser: TestBrowser;

beforeAll(async () => {
  t = await createTestDatabase();
  accounts = [await openAccount(t.url, "north"), await openAccount(t.url, "south")];
  await seedAlerts(accounts[0]!, [{ taxId: "31313131", name: "Northern Mill Kft" }]);
  await seedAlerts(accounts[1]!, [{ taxId: "42424242", name: "Southern Port Zrt" }]);
  web = await startTestConsole(t.db, {
    env: { REGWATCH_ACCOUNTS_FILE: writeAccountsFile(["north", "south", "west"]) },
  });
  await createUser(t.db, "sara", "reader");
  await grantAccounts(t.db.sql, "sara", ["north", "south"]);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await web?.close();
  for (const db of accounts) await db.close();
  await t?.drop();
});

describe("the account switcher in a browser running no script", () => {
  it("lists the user's accounts only and switches with the select and the button", async () => {
    const page = await browser.context.newPage();
    let scripts = 0;
    await page.route("**/static/console.js", (route) => {
      scripts += 1;
      return route.abort();
    });
    await page.goto(`${web.url}/login`);
    await page.fill('input[name="username"]', "sara");
    await page.fill('input[name="password"]', TEST_PASSWORD);
    await Promise.all([page.waitForURL(`${web.url}/`), page.click('button[type="submit"]')]);

    const main = page.locator("main");
    expect((await main.textContent()) ?? "").toContain("Northern Mill Kft");
    const options = await page.locator('select[name="account"] option').allInnerTexts();
    expect(options).toEqual(["north", "south"]);

    await page.selectOption('select[name="account"]', "south");
    await Promise.all([page.waitForURL(`${web.url}/`), page.click('form.account button[type="submit"]')]);
    const after = (await main.textContent()) ?? "";
    expect(after).toContain("Southern Port Zrt");
    expect(after).not.toContain("Northern Mill Kft");
    expect(await page.locator('select[name="account"]').inputValue()).toBe("south");
    expect(scripts).toBeGreaterThan(0); // the script was asked for, and refused

    await mkdir(screenshotPath(""), { recursive: true });
    await page.screenshot({ path: screenshotPath("console-accounts.png"), fullPage: true });
    await page.close();
  });
});
