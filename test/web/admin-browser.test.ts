/**
 * Issue 34's inbox and admin pages in a real browser (Debian's Chromium through playwright-core).
 * Point 4: an empty inbox links to the rules page; a change three rules matched is one row naming
 * the three, marked high in words as well as colour; a count card opens its filter; acting on the
 * row acknowledges its three alerts and the page confirms it and shows the new state; a change
 * assigned to me appears under "assigned to me". Point 5: the sign-in page of a console without
 * users says how to create the first admin; an admin adds a rule, pauses and removes it; adds a
 * user and sees the password once; cannot demote the last admin; adds a business to a list and
 * removes it. Screenshots go to test-output/.
 */
import { mkdir } from "node:fs/promises";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, screenshotPath, type TestBrowser } from "../helpers/browser.ts";
import { createUser, startTestConsole, TEST_PASSWORD, type TestConsole } from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { addNotifyRule, raiseAlerts } from "./fixtures.ts";

let t: TestDatabase;
let web: TestConsole;
let browser: TestBrowser;
let page: Page;

const mainText = () =>
  // biome-ignore lint/performance/useDomNodeTextContent: the text as rendered
  page.locator("main").innerText();

async function signInAs(name: string, password = TEST_PASSWORD) {
  await page.goto(`${web.url}/login`);
  await page.fill('input[name="username"]', name);
  await page.fill('input[name="password"]', password);
  await Promise.all([page.waitForURL(`${web.url}/`), page.click('button[type="submit"]')]);
}

beforeAll(async () => {
  t = await createTestDatabase();
  web = await startTestConsole(t.db);
  browser = await launchBrowser();
  page = await browser.context.newPage();
  await mkdir(screenshotPath(""), { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await web?.close();
  await t?.drop();
});

describe("a fresh console", () => {
  it("says on its sign-in page how to create the first admin", async () => {
    await page.goto(`${web.url}/login`);
    const text = await page.locator("main").textContent();
    expect(text).toContain("this console has no users");
    expect(text).toContain("regwatch users add NAME --role admin --password-stdin");
    await createUser(t.db, "ada", "admin");
    await createUser(t.db, "viktor", "reviewer");
  });

  it("says an empty inbox has no rule and links an admin to the rules page", async () => {
    await signInAs("ada");
    expect(await mainText()).toContain("no alert rule exists yet");
    await Promise.all([
      page.waitForURL(`${web.url}/rules`),
      page.click("main .empty-reason a[href='/rules']"),
    ]);
  });
});

describe("the rules page", () => {
  it("adds a rule from the form and shows it with a confirmation", async () => {
    await page.fill('form[action="/rules"] input[name="name"]', "everything");
    await page.selectOption('form[action="/rules"] select[name="channel"]', "notify");
    await page.fill('form[action="/rules"] input[name="target"]', "regwatch_browser");
    await page.fill('form[action="/rules"] input[name="note"]', "first rule");
    await Promise.all([
      page.waitForURL(/\/rules\?done=added/),
      page.click('form[action="/rules"] button[type="submit"]'),
    ]);
    const text = await mainText();
    expect(text).toContain("Rule everything was added");
    expect(await page.locator("table td:first-child a", { hasText: "everything" }).count()).toBe(1);
    await page.screenshot({ path: screenshotPath("console-rules.png"), fullPage: true });
  });

  it("shows a refused rule's problems and keeps what was typed", async () => {
    await page.fill('form[action="/rules"] input[name="name"]', "bad");
    await page.selectOption('form[action="/rules"] select[name="channel"]', "webhook");
    await page.fill('form[action="/rules"] input[name="target"]', "not a url");
    await page.click('form[action="/rules"] button[type="submit"]');
    await page.waitForLoadState("load");
    expect(await page.locator('[role="alert"]').textContent()).toContain("is not a web address");
    expect(await page.inputValue('form[action="/rules"] input[name="name"]')).toBe("bad");
  });

  it("pauses and resumes a rule, and its history shows each by the admin", async () => {
    await page.goto(`${web.url}/rules`);
    await Promise.all([page.waitForURL(/done=paused/), page.click("button:has-text('Pause')")]);
    expect(await mainText()).toContain("Rule everything is paused");
    await Promise.all([page.waitForURL(/done=resumed/), page.click("button:has-text('Resume')")]);
    const history = await mainText();
    expect(history).toMatch(/ada\s+rule added\s+first rule/);
    expect(history).toMatch(/ada\s+rule paused/);
    expect(history).toMatch(/ada\s+rule resumed/);
  });
});

describe("the inbox for people", () => {
  let changeId: number;

  it("shows a change three rules matched as one row naming them, high in words and colour", async () => {
    await addNotifyRule(t.db.sql, "bank accounts");
    await addNotifyRule(t.db.sql, "suppliers");
    const [first] = await raiseAlerts(t.db.sql, [
      {
        taxId: "11111111",
        date: "2026-11-20",
        headings: ["bank_accounts"],
        lists: ["suppliers"],
        values: {
          bank_accounts: [[{ bank_account: "11700024-00000001" }], [{ bank_account: "10402142-49555052" }]],
        },
      },
      { taxId: "22222222", date: "2026-11-21", headings: ["address"], lists: ["suppliers"] },
    ]);
    const [row] = await t.db.sql<{ changeId: number }[]>`
      select change_id::int as "changeId" from regwatch.alerts where id = ${first!}`;
    changeId = row!.changeId;
    await page.goto(`${web.url}/`);
    const shown = page.locator(`tr[data-change="${changeId}"]`);
    expect(await page.locator("tr.change-row").count()).toBe(2);
    expect(await shown.locator("ul.rules li").allInnerTexts()).toEqual([
      "bank accounts",
      "everything",
      "suppliers",
    ]);
    const severity = shown.locator(".severity");
    expect(await severity.textContent()).toContain("High");
    const colour = await severity.evaluate((el) => el.ownerDocument.defaultView!.getComputedStyle(el).color);
    expect(colour).toBe("rgb(180, 35, 24)");
    await page.screenshot({ path: screenshotPath("console-inbox-per-change.png"), fullPage: true });
  });

  it("opens a count card's filter", async () => {
    await Promise.all([
      page.waitForURL(`${web.url}/?severity=high`),
      page.click("nav.counts a[href='/?severity=high']"),
    ]);
    expect(await page.locator("tr.change-row").count()).toBe(1);
    expect(await page.locator("nav.counts a[aria-current='page']").textContent()).toContain(
      "of high severity",
    );
  });

  it("assigns the row to me; 'assigned to me' shows it", async () => {
    await page.check(`tr[data-change="${changeId}"] input[name="changes"]`);
    await page.selectOption('select[name="action"]', "assign");
    await page.selectOption('select[name="assignee"]', "ada");
    await Promise.all([page.waitForURL(/done=assign/), page.click("button:has-text('Apply to selected')")]);
    expect(await page.locator('[role="status"]').textContent()).toContain(
      "3 alerts of 1 change assigned to ada",
    );
    await Promise.all([
      page.waitForURL(`${web.url}/?assigned=me`),
      page.click("nav.counts a[href='/?assigned=me']"),
    ]);
    expect(await page.locator("tr.change-row").count()).toBe(1);
    expect(await page.locator(`tr[data-change="${changeId}"]`).textContent()).toContain("ada");
  });

  it("acknowledges the row's three alerts with one action, confirms and shows the new state", async () => {
    await page.goto(`${web.url}/`);
    await page.check(`tr[data-change="${changeId}"] input[name="changes"]`);
    await page.selectOption('select[name="action"]', "ack");
    await Promise.all([page.waitForURL(/done=ack/), page.click("button:has-text('Apply to selected')")]);
    expect(await page.locator('[role="status"]').textContent()).toContain(
      "Done: 3 alerts of 1 change acknowledged",
    );
    expect(await page.locator(`tr[data-change="${changeId}"]`).count()).toBe(0);
    const events = await t.db.sql<{ n: number }[]>`
      select count(*)::int as n from regwatch.alert_events e join regwatch.alerts a on a.id = e.alert_id
      where a.change_id = ${changeId} and e.action = 'acknowledged' and e.by = 'ada'`;
    expect(events[0]!.n).toBe(3);
  });
});

describe("the users page", () => {
  it("adds a user and shows the generated password once", async () => {
    await page.goto(`${web.url}/users`);
    await page.fill('form[action="/users/add"] input[name="name"]', "rita");
    await page.selectOption('form[action="/users/add"] select[name="role"]', "reader");
    await page.click('form[action="/users/add"] button[type="submit"]');
    await page.waitForLoadState("load");
    const password = await page.locator("code.new-password").textContent();
    expect(password).toHaveLength(20);
    await page.screenshot({ path: screenshotPath("console-users.png"), fullPage: true });
    await page.goto(`${web.url}/users`);
    expect(await page.locator("code.new-password").count()).toBe(0);
    expect(await page.content()).not.toContain(password);
  });

  it("refuses to demote the last admin, saying why", async () => {
    const row = page.locator('tr[data-user="ada"]');
    await row.locator('select[name="role"]').selectOption("reader");
    await row.locator("button:has-text('Change role')").click();
    await page.waitForLoadState("load");
    expect(await page.locator('[role="alert"]').textContent()).toContain("ada is the last admin");
  });
});

describe("list members", () => {
  it("adds a business to a new desired list and removes it", async () => {
    await page.goto(`${web.url}/lists`);
    await page.fill('form[action="/lists/members"] input[name="list"]', "partners");
    await page.fill('form[action="/lists/members"] input[name="tax_id"]', "10000001");
    await Promise.all([
      page.waitForURL(/\/lists\/partners\?done=added/),
      page.click('form[action="/lists/members"] button[type="submit"]'),
    ]);
    expect(await page.locator('[role="status"]').textContent()).toContain(
      "10000001 was added to the new desired list partners",
    );
    expect(await page.locator('tr[data-tax-id="10000001"]').count()).toBe(1);
    await Promise.all([page.waitForURL(/done=removed/), page.click('tr[data-tax-id="10000001"] button')]);
    expect(await page.locator('tr[data-tax-id="10000001"]').count()).toBe(0);
  });

  it("shows a reviewer the list without forms", async () => {
    await page.context().clearCookies();
    await signInAs("viktor");
    await page.goto(`${web.url}/lists/partners`);
    expect(await page.locator('form[action^="/lists/members"]').count()).toBe(0);
    expect(await mainText()).toContain("needs the admin role");
  });
});
