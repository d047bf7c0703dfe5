/**
 * The console in a real browser (Debian's Chromium through playwright-core): an alert raised by a
 * sync against the emulator is seen in the inbox, acknowledged with a note, leaves the inbox and
 * shows the user in its history; a reader cannot act; a name holding <script> is shown as text and
 * never runs; the "select all" enhancement works under the CSP. Screenshots go to test-output/.
 */
import { mkdir } from "node:fs/promises";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertAlertRule } from "../../src/alerts/sql/rules.ts";
import { type RunningEmulator, startEmulator } from "../../src/emulator/index.ts";
import { launchBrowser, screenshotPath, type TestBrowser } from "../helpers/browser.ts";
import { createUser, startTestConsole, TEST_PASSWORD, type TestConsole } from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { emulatorConfig, sampleTaxIds, seedList, syncAt } from "../helpers/sync.ts";

const MORNING = "2024-03-10T08:00:00+01:00";
const SCRIPT_NAME = "<script>window.__pwned = 1</script> Kft.";

let emulator: RunningEmulator;
let t: TestDatabase;
let web: TestConsole;
let browser: TestBrowser;
let page: Page;
let dialogs = 0;
let alertId: number;
let scriptAlertId: number;

async function signInAs(name: string) {
  await page.goto(`${web.url}/login`);
  await page.fill('input[name="username"]', name);
  await page.fill('input[name="password"]', TEST_PASSWORD);
  await Promise.all([page.waitForURL(`${web.url}/`), page.click('button[type="submit"]')]);
}

beforeAll(async () => {
  emulator = await startEmulator({
    seed: 5,
    businesses: 1500,
    now: MORNING,
    frozenClock: true,
    rateLimit: 100,
    changesPerBusinessPerMonth: 3,
  });
  const ids = sampleTaxIds(emulator, 8);
  await seedList(emulator, { name: "suppliers", createdAt: "2024-02-01", taxIds: ids });
  const listKey = emulator.listsSnapshot().find((l) => l.list_name === "suppliers")!.list_key;
  t = await createTestDatabase();
  const config = emulatorConfig(emulator);
  // History first (raises nothing), then the rule, then the morning sync raises alerts.
  await syncAt(t.db.sql, config, emulator, {
    kind: "backfill",
    from: "2024-02-01",
    to: "2024-02-14",
    lists: [listKey],
  });
  await insertAlertRule(t.db.sql, {
    name: "suppliers watch",
    lists: [],
    headings: [],
    channel: "notify",
    target: "regwatch_browser_test",
    digest: false,
  });
  const sync = await syncAt(t.db.sql, config, emulator);
  expect(sync.status).toBe("ok");
  const alerts = await t.db.sql<{ id: number; taxId: string }[]>`
    select a.id::int, c.tax_id as "taxId" from regwatch.alerts a join regwatch.changes c on c.id = a.change_id
    order by a.id desc`;
  expect(alerts.length).toBeGreaterThan(1);
  alertId = alerts[0]!.id;
  const other = alerts.find((a) => a.taxId !== alerts[0]!.taxId) ?? alerts[1]!;
  scriptAlertId = other.id;
  await t.db.sql`
    insert into regwatch.business_profiles (tax_id, name) values (${other.taxId}, ${SCRIPT_NAME})
    on conflict (tax_id) do update set name = excluded.name`;

  web = await startTestConsole(t.db);
  await createUser(t.db, "viktor", "reviewer");
  await createUser(t.db, "rita", "reader");
  browser = await launchBrowser();
  page = await browser.context.newPage();
  page.on("dialog", (dialog) => {
    dialogs++;
    void dialog.dismiss();
  });
  await mkdir(screenshotPath(""), { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await web?.close();
  await t?.drop();
  await emulator?.close();
});

describe("the console in a browser", () => {
  it("signs in and shows the alert the sync raised, a <script> name as text", async () => {
    await signInAs("viktor");
    expect(await page.locator(`a[href="/alerts/${alertId}"]`).count()).toBe(1);
    // biome-ignore lint/performance/useDomNodeTextContent: the text as rendered, table cells apart
    const text = await page.locator("main").innerText();
    expect(text).toContain(SCRIPT_NAME);
    expect(await page.evaluate("typeof window.__pwned")).toBe("undefined");
    expect(dialogs).toBe(0);
    await page.screenshot({ path: screenshotPath("console-inbox.png"), fullPage: false });
  });

  it("ticks every change of the page with select all (static JavaScript under the CSP)", async () => {
    await page.check("input[data-select-all]");
    const boxes = page.locator('input[name="changes"]');
    const count = await boxes.count();
    expect(count).toBeGreaterThan(1);
    for (let i = 0; i < count; i++) expect(await boxes.nth(i).isChecked()).toBe(true);
    await page.uncheck("input[data-select-all]");
  });

  it("acknowledges the alert with a note: it leaves the inbox and its history shows the user", async () => {
    await page.click(`a[href="/alerts/${alertId}"]`);
    await page.waitForURL(`${web.url}/alerts/${alertId}`);
    const ack = page.locator(`form[action="/alerts/${alertId}/ack"]`);
    await ack.locator("textarea[name=note]").fill("Called the supplier: the new account is genuine");
    await Promise.all([page.waitForLoadState("load"), ack.locator("button").click()]);
    await page.waitForURL(`${web.url}/alerts/${alertId}`);
    // biome-ignore lint/performance/useDomNodeTextContent: the text as rendered, table cells apart
    const history = await page.locator("table", { hasText: "Who" }).innerText();
    expect(history).toMatch(/viktor\s+acknowledged\s+Called the supplier: the new account is genuine/);
    await page.screenshot({ path: screenshotPath("console-alert.png"), fullPage: true });
    await page.goto(`${web.url}/`);
    expect(await page.locator(`a[href="/alerts/${alertId}"]`).count()).toBe(0);
    await page.goto(`${web.url}/?status=acknowledged`);
    expect(await page.locator(`a[href="/alerts/${alertId}"]`).count()).toBe(1);
  });

  it("lets a reader read but not act", async () => {
    await Promise.all([page.waitForURL(`${web.url}/login`), page.click("text=Sign out")]);
    await signInAs("rita");
    expect(await page.locator('input[name="changes"]').count()).toBe(0);
    await page.goto(`${web.url}/alerts/${scriptAlertId}`);
    // biome-ignore lint/performance/useDomNodeTextContent: the text as rendered, table cells apart
    expect(await page.locator("main").innerText()).toContain("acting on it needs the reviewer role");
    expect(await page.locator('form[action$="/ack"]').count()).toBe(0);
    // A POST the reader crafts with their own token is refused.
    const status = await page.evaluate(`(async () => {
      const csrf = document.querySelector('input[name="_csrf"]').value;
      const answer = await fetch("/alerts/${scriptAlertId}/ack", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ _csrf: csrf, note: "reader" }),
      });
      return answer.status;
    })()`);
    expect(status).toBe(403);
    const [row] = await t.db.sql<
      { status: string }[]
    >`select status from regwatch.alerts where id = ${scriptAlertId}`;
    expect(row!.status).toBe("open");
    expect(dialogs).toBe(0);
  });
});
