/**
 * Issue 34 point 7, the keyboard half, in a real browser (Debian's Chromium through
 * playwright-core) on a fleet console of two accounts: a reviewer signs in, skips the header with
 * the first Tab, tabs to a change in the inbox, ticks it and acknowledges it with keys alone,
 * every control on the way showing where the focus is; the account switcher and the language
 * switch are reached and used with the keyboard, and the header holding them passes the
 * WCAG 2.1 AA check in both languages.
 */
import { mkdir } from "node:fs/promises";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantAccounts } from "../../src/console/access.ts";
import type { Database } from "../../src/db/connect.ts";
import { blockingViolations } from "../helpers/axe.ts";
import { launchBrowser, pageAsking, screenshotPath, type TestBrowser } from "../helpers/browser.ts";
import { createUser, startTestConsole, TEST_PASSWORD, type TestConsole } from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { openAccount, seedAlerts, writeAccountsFile } from "./accounts-fixture.ts";

let t: TestDatabase;
let accounts: Database[] = [];
let web: TestConsole;
let browser: TestBrowser;
let page: Page;
let northAlerts: number[];

beforeAll(async () => {
  t = await createTestDatabase();
  accounts = [await openAccount(t.url, "north"), await openAccount(t.url, "south")];
  northAlerts = await seedAlerts(accounts[0]!, [{ taxId: "31313131", name: "Northern Mill Kft" }]);
  await seedAlerts(accounts[1]!, [{ taxId: "42424242", name: "Southern Port Zrt" }]);
  web = await startTestConsole(t.db, {
    env: { REGWATCH_ACCOUNTS_FILE: writeAccountsFile(["north", "south"]) },
  });
  await createUser(t.db, "kata", "reviewer");
  await grantAccounts(t.db.sql, "kata", ["north", "south"]);
  browser = await launchBrowser();
  page = await pageAsking(browser, "en-GB,en;q=0.9");
  await mkdir(screenshotPath(""), { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await web?.close();
  for (const db of accounts) await db.close();
  await t?.drop();
});

/** What has the focus: its tag, id, name and text, and whether a ring of at least 2 px shows it. */
interface Focused {
  tag: string;
  id: string;
  name: string | null;
  text: string;
  inMain: boolean;
  inHeader: boolean;
  ring: boolean;
  onScreen: boolean;
}

function focused(): Promise<Focused> {
  return page.locator("body").evaluate((body) => {
    const doc = body.ownerDocument;
    const el = (doc.activeElement ?? body) as typeof body;
    const style = doc.defaultView!.getComputedStyle(el);
    const box = el.getBoundingClientRect();
    return {
      tag: el.tagName.toLowerCase(),
      id: el.id,
      name: el.getAttribute("name"),
      text: (el.textContent ?? "").trim(),
      inMain: el.closest("main") !== null,
      inHeader: el.closest("header.top") !== null,
      ring: style.outlineStyle !== "none" && Number.parseFloat(style.outlineWidth) >= 2,
      onScreen: box.width > 0 && box.height > 0 && box.top >= 0 && box.left >= 0,
    };
  });
}

/** Presses Tab (or Shift+Tab) until `wanted` holds, at most `limit` times; returns every stop. */
async function tabUntil(wanted: (f: Focused) => boolean, key = "Tab", limit = 60): Promise<Focused[]> {
  const stops: Focused[] = [];
  for (let i = 0; i < limit; i += 1) {
    await page.keyboard.press(key);
    const now = await focused();
    stops.push(now);
    if (wanted(now)) return stops;
  }
  throw new Error(`${key} never reached the control; stops: ${stops.map((s) => s.id || s.text).join(" | ")}`);
}

describe("the console from the keyboard", () => {
  it("signs in, skips the header and acknowledges a change in the inbox with keys alone", async () => {
    await page.goto(`${web.url}/login`);
    await tabUntil((f) => f.name === "username");
    await page.keyboard.type("kata");
    await page.keyboard.press("Tab");
    await page.keyboard.type(TEST_PASSWORD);
    await Promise.all([page.waitForURL(`${web.url}/`), page.keyboard.press("Enter")]);

    // The first Tab of a page with rows lands on the skip link to its first row (issue 49), the
    // next on the skip link to the page's content, each shown while it has the focus.
    await page.keyboard.press("Tab");
    expect(await focused()).toMatchObject({ tag: "a", text: "Skip to the first row", onScreen: true });
    await page.keyboard.press("Tab");
    const skip = await focused();
    expect(skip).toMatchObject({ tag: "a", text: "Skip to the page's content", onScreen: true, ring: true });
    await page.screenshot({ path: screenshotPath("keyboard-skip-link.png") });
    await page.keyboard.press("Enter");
    expect((await focused()).id).toBe("main");

    // From there the next stops are the page's own, each with a visible focus ring.
    const stops = await tabUntil((f) => f.name === "changes");
    expect(stops.every((s) => s.inMain)).toBe(true);
    expect(stops.filter((s) => !s.ring)).toEqual([]);
    await page.keyboard.press("Space");
    await page.screenshot({ path: screenshotPath("keyboard-focus-ring.png") });
    expect(await page.locator('input[name="changes"]').first().isChecked()).toBe(true);

    // Back to the action bar above the rows: its action is "acknowledge" unless changed.
    await tabUntil((f) => f.tag === "button" && f.text === "Apply to selected", "Shift+Tab");
    expect(await page.locator('select[name="action"]').inputValue()).toBe("ack");
    await Promise.all([page.waitForURL(/done=ack/), page.keyboard.press("Enter")]);
    expect(await page.locator('main [role="status"]').textContent()).toContain(
      "1 alert of 1 change acknowledged",
    );
    const [stored] = await accounts[0]!.sql<{ status: string }[]>`
      select status from ${accounts[0]!.sql.t.alerts} where id = ${northAlerts[0]!}`;
    expect(stored?.status).toBe("acknowledged");
    expect(await blockingViolations(page)).toEqual([]);
  });

  it("reaches and uses the account switcher and the language switch from the keyboard", async () => {
    await page.goto(`${web.url}/`);
    expect(await blockingViolations(page)).toEqual([]);
    const header = await tabUntil((f) => f.inMain);
    const ids = header.map((s) => s.id);
    expect(ids).toContain("nav-account");
    expect(ids).toContain("language-user");
    expect(header.filter((s) => !s.ring)).toEqual([]);

    // The account: the select, the next option by arrow key, then its button.
    await page.goto(`${web.url}/`);
    await tabUntil((f) => f.id === "nav-account");
    await page.keyboard.press("ArrowDown");
    expect(await page.locator("#nav-account").inputValue()).toBe("south");
    await tabUntil((f) => f.tag === "button");
    // The answer is the inbox again (the same address), now of the other account.
    await page.keyboard.press("Enter");
    await page.locator("main", { hasText: "Southern Port Zrt" }).waitFor();
    expect(await page.locator("main", { hasText: "Northern Mill Kft" }).count()).toBe(0);

    // The language: Hungarian is the option above English.
    await tabUntil((f) => f.id === "language-user");
    await page.keyboard.press("ArrowUp");
    expect(await page.locator("#language-user").inputValue()).toBe("hu");
    await tabUntil((f) => f.tag === "button");
    await page.keyboard.press("Enter");
    await page.locator('html[lang="hu"]').waitFor({ state: "attached" });
    expect(await page.locator('a.skip[href="#main"]').textContent()).toBe("Ugrás az oldal tartalmára");
    expect(await blockingViolations(page)).toEqual([]);
  });
});
