/**
 * Counts and codes as people say them, in a real browser (Debian's Chromium through
 * playwright-core), in Hungarian and in English: the inbox's confirmation and count cards choose
 * their plural forms (one alert of one change, several alerts of one change); an alert rule's
 * channel and a list member's source read as words with the code on hover.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertAlertRule } from "../../src/alerts/sql/rules.ts";
import { addConsoleUser } from "../../src/console/users.ts";
import { addDesiredItems, ensureDesiredList } from "../../src/reconcile/sql/desired-edit.ts";
import { hashPassword } from "../../src/web/passwords.ts";
import { launchBrowser, pageAsking, signInThroughForm, type TestBrowser } from "../helpers/browser.ts";
import { startTestConsole, TEST_PASSWORD, type TestConsole } from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { raiseAlerts } from "./fixtures.ts";

let t: TestDatabase;
let web: TestConsole;
let browser: TestBrowser;
/** Change ids: one alert each (only the rule for every heading matches a name change), three each (bank accounts). */
const one: number[] = [];
const three: number[] = [];

beforeAll(async () => {
  t = await createTestDatabase();
  const { sql } = t.db;
  const rule = (name: string, headings: string[], channel: "notify" | "webhook" | "email", target: string) =>
    insertAlertRule(sql, { name, lists: [], headings, channel, target, digest: false });
  await rule("everything", [], "notify", "regwatch_console_test");
  await rule("accounts-hook", ["bank_accounts"], "webhook", "https://example.test/hook");
  await rule("accounts-mail", ["bank_accounts"], "email", "finance@example.test");
  const changes = ["11111111", "22222222", "33333333", "44444444"].map((taxId, i) => ({
    taxId,
    date: "2026-11-20",
    headings: [i % 2 === 0 ? "name" : "bank_accounts"],
    lists: ["suppliers"],
  }));
  await raiseAlerts(sql, changes);
  const rows = await sql<{ changeId: number; alerts: number }[]>`
    select change_id::int as "changeId", count(*)::int as alerts from regwatch.alerts
    group by change_id order by change_id`;
  for (const r of rows) (r.alerts === 1 ? one : three).push(r.changeId);
  expect([one.length, three.length]).toEqual([2, 2]);
  await sql.begin(async (tx) => {
    await ensureDesiredList(tx, "suppliers");
    await addDesiredItems(tx, "suppliers", [{ taxId: "11111111", note: null }], "import");
  });
  web = await startTestConsole(t.db);
  const passwordHash = await hashPassword(TEST_PASSWORD);
  await addConsoleUser(sql, { name: "hanna", role: "admin", passwordHash, locale: "hu" });
  await addConsoleUser(sql, { name: "edward", role: "admin", passwordHash, locale: "en" });
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await web?.close();
  await t?.drop();
});

const squeeze = (s: string | null) => (s ?? "").replace(/\s+/g, " ").trim();

async function acknowledge(page: Page, changeId: number): Promise<string> {
  await page.goto(`${web.url}/`);
  await page.check(`tr[data-change="${changeId}"] input[name="changes"]`);
  await page.selectOption('#bulk select[name="action"]', "ack");
  await Promise.all([page.waitForURL(/done=ack/), page.click('#bulk button[type="submit"]')]);
  return squeeze(await page.locator('[role="status"]').first().textContent());
}

const card = async (page: Page) => squeeze(await page.locator("nav.counts a[href='/']").textContent());

describe("counts with their plurals", () => {
  it("in Hungarian: one alert of one change, three alerts of one change", async () => {
    const page = await pageAsking(browser, "en-GB");
    await signInThroughForm(page, web.url, "hanna");
    expect(await card(page)).toBe("4 változás nyitott riasztásokkal");
    expect(await acknowledge(page, one[0]!)).toBe(
      "Kész: 1 változás 1 riasztását tudomásul vette; a riasztás előzményei rögzítik.",
    );
    expect(await acknowledge(page, three[0]!)).toBe(
      "Kész: 1 változás 3 riasztását tudomásul vette; minden riasztás előzményei rögzítik.",
    );
    await page.close();
  });

  it("in English: one alert of one change, three alerts of one change, one change on the card", async () => {
    const page = await pageAsking(browser, "hu-HU");
    await signInThroughForm(page, web.url, "edward");
    expect(await card(page)).toBe("2 changes with open alerts");
    expect(await acknowledge(page, one[1]!)).toBe(
      "Done: 1 alert of 1 change acknowledged; the alert's history records it.",
    );
    expect(await card(page)).toBe("1 change with open alerts");
    expect(await acknowledge(page, three[1]!)).toBe(
      "Done: 3 alerts of 1 change acknowledged; each alert's history records it.",
    );
    await page.close();
  });
});

describe("codes as words, the code on hover", () => {
  for (const [user, asked, words] of [
    [
      "hanna",
      "en-GB",
      { notify: "Postgres-figyelő (NOTIFY)", email: "e-mail", source: "fájlból importálva (watch import)" },
    ],
    [
      "edward",
      "hu-HU",
      {
        notify: "Postgres listener (NOTIFY)",
        email: "e-mail",
        source: "imported from a file (watch import)",
      },
    ],
  ] as const) {
    it(`says channels and list members' sources to ${user}`, async () => {
      const page = await pageAsking(browser, asked);
      await signInThroughForm(page, web.url, user);
      await page.goto(`${web.url}/rules`);
      const notify = page.locator("td[title='notify']");
      expect(squeeze(await notify.textContent())).toBe(words.notify);
      expect(squeeze(await page.locator("td[title='email']").textContent())).toBe(words.email);
      const options = await page
        .locator('form[action="/rules"] select[name="channel"] option')
        .allInnerTexts();
      expect(options).toContain(words.notify);
      expect(options).not.toContain("notify");
      await page.goto(`${web.url}/lists/suppliers`);
      const source = page.locator("tr[data-tax-id='11111111'] td[title='import']");
      expect(squeeze(await source.textContent())).toBe(words.source);
      await page.close();
    });
  }
});
