/**
 * Two tabs of one session in a real browser (Debian's Chromium): acme's alert is open in the
 * first, the second switches to globex, then the first resolves with a note. The answer is 409
 * naming acme; neither account's alert changed. Back on acme, the same form resolves acme's alert.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantAccounts } from "../../src/console/access.ts";
import type { Database } from "../../src/db/connect.ts";
import { launchBrowser, type TestBrowser } from "../helpers/browser.ts";
import { createUser, startTestConsole, TEST_PASSWORD, type TestConsole } from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { openAccount, seedAlerts, writeAccountsFile } from "./accounts-fixture.ts";

let t: TestDatabase;
let acme: Database;
let globex: Database;
let web: TestConsole;
let browser: TestBrowser;
let alertId: number;

beforeAll(async () => {
  t = await createTestDatabase();
  acme = await openAccount(t.url, "acme");
  globex = await openAccount(t.url, "globex");
  [alertId] = (await seedAlerts(acme, [{ taxId: "31313131", name: "Acme Mill Kft" }])) as [number];
  await seedAlerts(globex, [{ taxId: "42424242", name: "Globex Port Zrt" }]);
  web = await startTestConsole(t.db, {
    env: { REGWATCH_ACCOUNTS_FILE: writeAccountsFile(["acme", "globex"]) },
  });
  await createUser(t.db, "anna", "reviewer");
  await grantAccounts(t.db.sql, "anna", ["acme", "globex"]);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await web?.close();
  await acme?.close();
  await globex?.close();
  await t?.drop();
});

const statusIn = async (db: Database) =>
  (
    await db.sql<{ status: string; note: string | null }[]>`
    select status, (select note from ${db.sql.t.alert_events} e where e.alert_id = a.id order by e.id desc limit 1) as note
    from ${db.sql.t.alerts} a where id = ${alertId}`
  )[0]!;

describe("two tabs of one session", () => {
  it("refuses the first tab's form once the second has switched account, and says which account it was for", async () => {
    const first = await browser.context.newPage();
    await first.goto(`${web.url}/login`);
    await first.fill('input[name="username"]', "anna");
    await first.fill('input[name="password"]', TEST_PASSWORD);
    await Promise.all([first.waitForURL(`${web.url}/`), first.click('button[type="submit"]')]);
    await first.goto(`${web.url}/alerts/${alertId}`);
    expect(await first.locator('select[name="account"]').inputValue()).toBe("acme");
    expect((await first.locator("main").textContent()) ?? "").toContain("Acme Mill Kft");

    // The second tab shares the session cookie and switches it to globex.
    const second = await browser.context.newPage();
    await second.goto(`${web.url}/`);
    await second.selectOption('select[name="account"]', "globex");
    await Promise.all([second.waitForURL(`${web.url}/`), second.click('form.account button[type="submit"]')]);
    expect((await second.locator("main").textContent()) ?? "").toContain("Globex Port Zrt");

    // Back in the first tab, still showing acme's alert: resolve with a note.
    const resolveForm = first.locator(`form[action="/alerts/${alertId}/resolve"]`);
    await resolveForm.locator('textarea[name="note"]').fill("acme's note");
    const [answer] = await Promise.all([
      first.waitForResponse((r) => r.url().endsWith(`/alerts/${alertId}/resolve`)),
      resolveForm.locator('button[type="submit"]').click(),
    ]);
    expect(answer.status()).toBe(409);
    const refusal = (await first.locator("main").textContent()) ?? "";
    expect(refusal).toContain("shown for the account acme");
    expect(refusal).toContain("Nothing was changed");
    expect(await statusIn(acme)).toEqual({ status: "open", note: null });
    expect(await statusIn(globex)).toEqual({ status: "open", note: null });

    // Switched back to acme, a fresh page's form acts on acme.
    await second.selectOption('select[name="account"]', "acme");
    await Promise.all([second.waitForURL(`${web.url}/`), second.click('form.account button[type="submit"]')]);
    await first.goto(`${web.url}/alerts/${alertId}`);
    await first
      .locator(`form[action="/alerts/${alertId}/resolve"] textarea[name="note"]`)
      .fill("acme's note");
    await Promise.all([
      first.waitForURL(`${web.url}/alerts/${alertId}`),
      first.locator(`form[action="/alerts/${alertId}/resolve"] button[type="submit"]`).click(),
    ]);
    expect(await statusIn(acme)).toEqual({ status: "resolved", note: "acme's note" });
    expect((await statusIn(globex)).status).toBe("open");
  });
});
