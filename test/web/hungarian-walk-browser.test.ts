/**
 * Issue 49 point 7, in a real browser (Debian's Chromium through playwright-core): a Hungarian
 * clerk (reviewer) and a Hungarian admin walk every page the console links to, and the pages
 * that hold the hard cases (a business with its founding day and form, an alert whose e-mail
 * the SMTP server refused, a batch checked by `root` at the command line, the lists after
 * "apply now", error pages). No page shows them an English word, a catalog key or code, a
 * `regwatch …` command, an ISO date or the bare system account, outside `title` attributes,
 * `<code>`/`<kbd>` and the user's own data.
 */
import { writeFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordPassFailure } from "../../src/alerts/sql/delivery-health.ts";
import { insertAlertRule } from "../../src/alerts/sql/rules.ts";
import { addConsoleUser } from "../../src/console/users.ts";
import { rebuildChangeFacts } from "../../src/parse/sql/business-profiles.ts";
import { recordPaymentBatch } from "../../src/payments/sql/payment-checks.ts";
import { addDesiredItems, ensureDesiredList } from "../../src/reconcile/sql/desired-edit.ts";
import { hashPassword } from "../../src/web/passwords.ts";
import { launchBrowser, pageAsking, screenshotPath, type TestBrowser } from "../helpers/browser.ts";
import { signIn, TEST_PASSWORD } from "../helpers/console.ts";
import { englishOnlyWords, type Finding, findingsIn, withoutUserData } from "./hungarian-words.ts";
import { type PagesWorld, startPagesWorld } from "./pages-fixture.ts";

let world: PagesWorld;
let browser: TestBrowser;
let alertId: number;
let batchId: string;
let founded: string;
let userData: string[];
const SMTP_REPLY = "550 5.1.1 <penzugy@example.test>: Recipient address rejected: User unknown";

beforeAll(async () => {
  world = await startPagesWorld();
  const { sql } = world.t.db;
  const passwordHash = await hashPassword(TEST_PASSWORD);
  await addConsoleUser(sql, { name: "hanna", role: "reviewer", passwordHash, locale: "hu" });
  await addConsoleUser(sql, { name: "adel", role: "admin", passwordHash, locale: "hu" });
  const rule = await insertAlertRule(sql, {
    name: "pénzügy levél",
    lists: [],
    headings: ["bank_accounts"],
    channel: "email",
    target: "penzugy@example.test",
    digest: false,
  });
  const [alert] = await sql<{ id: number; ruleId: number }[]>`
    select id::int, rule_id::int as "ruleId" from ${sql.t.alerts} order by id limit 1`;
  alertId = alert!.id;
  await sql`
    insert into ${sql.t.alert_deliveries} (rule_id, kind, alert_ids, channel, target, status, attempts,
      last_status, last_reply, last_error, oldest_change)
    values (${rule!.id}, 'alert', ${[alertId]}, 'email', 'penzugy@example.test', 'dead', 3,
      550, ${SMTP_REPLY}, ${`SMTP server answered 550: ${SMTP_REPLY}`},
      '2024-03-01')`;
  await sql`
    insert into ${sql.t.alert_events} (rule_id, alert_id, by, action, note)
    values (${alert!.ruleId}, ${alertId}, 'root', 'acknowledged', null)`;
  // A search record of one business: its form and founding day reach its profile.
  founded = world.taxIds[0]!;
  const record = { tax_id: founded, type: "companies", founded_at: "2009-04-17" };
  await sql`
    insert into ${sql.t.businesses} (tax_id, type, full_name, record)
    values (${founded}, 'companies', 'Alapító Kft.', ${sql.json(record)})`;
  await sql.begin((tx) => rebuildChangeFacts(tx, [founded], "2024-03-09", "Europe/Budapest"));
  await recordPassFailure(sql, "the webhook send failed inside regwatch, not at the receiver: bad secret", 1);
  batchId = await recordBatch(world, founded);
  // A window held open by an item the registry sent that could not be stored.
  const [list] = await sql<{ key: string }[]>`
    select list_key as key from ${sql.t.watch_lists} order by list_key limit 1`;
  await sql`
    insert into ${sql.t.invalid_items} (list_key, window_start, window_end, change_date, tax_id, reason, item)
    values (${list!.key}, '2024-03-01', '2024-03-07', '2024-03-04', '1234567', 'tax_id "1234567" is not 8 digits', '{}')`;
  // The desired list's members with the reconciler's last outcome: one added, one refused.
  const [watched, refused] = [world.taxIds[0]!, "99999999"];
  await sql.begin(async (tx) => {
    await ensureDesiredList(tx, "suppliers");
    await addDesiredItems(
      tx,
      "suppliers",
      [watched, refused].map((taxId) => ({ taxId, note: null })),
      "cli",
    );
  });
  await sql`
    insert into ${sql.t.item_outcomes} (list_name, tax_id, op, code, message)
    values ('suppliers', ${watched}, 'add', null, 'added'),
           ('suppliers', ${refused}, 'add', 422, 'tax number is not valid')`;
  userData = await userDataOf(world);
  browser = await launchBrowser();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await world?.close();
});

async function recordBatch(w: PagesWorld, taxId: string): Promise<string> {
  const row = (line: number, verdict: string, detail: string | null) => ({
    line,
    taxId,
    bankAccount: "11773016-11111018-00000000",
    verdict,
    detail,
    nextStep: null,
    amount: "1000.00",
    currency: "HUF",
    reference: null,
    taxBase: taxId,
    payeeFoundBy: null,
    name: null,
    registryName: null,
    amountRaw: "1000",
    verifiedBy: null,
    verifiedOn: null,
  });
  const meta = { checkedBy: "root", source: "cli" as const, fileName: "utalas.csv", encoding: "utf-8" };
  return recordPaymentBatch(
    w.t.db.sql,
    { ...meta, delimiter: ";", checkedOn: "2024-03-10", holdDays: 30 },
    async (recording) => {
      await recording.insert([row(2, "account_not_registered", null), row(3, "ok", null)]);
      const totals = [{ currency: "HUF", amount: "2000.00", rows: 2, held: "1000.00", held_rows: 1 }];
      return { value: recording.id, end: { rowCount: 2, heldCount: 1, totals } };
    },
  );
}

/** The user's own data, which the console shows as it is: names, lists, rules, files, people. */
async function userDataOf(w: PagesWorld): Promise<string[]> {
  const { sql } = w.t.db;
  const rows = await sql<{ v: string }[]>`
    select name as v from ${sql.t.business_profiles} where name is not null
    union select list_name from ${sql.t.watch_lists} union select list_name from ${sql.t.desired_lists}
    union select name from ${sql.t.alert_rules} union select name from ${sql.t.console_users}
    union select target from ${sql.t.alert_rules} union select full_name from ${sql.t.businesses}
    union select 'utalas.csv'`;
  return rows.map((r) => r.v).sort((a, b) => b.length - a.length);
}

/** A tab signed in as `name`: the console's clock stands in 2024, so the session is made over HTTP. */
async function signedInPage(name: string, acceptLanguage = "en-GB,en;q=0.9"): Promise<Page> {
  const { cookie } = await signIn(world.web.url, name);
  const [cookieName, ...value] = cookie.split("=");
  await browser.context.clearCookies();
  await browser.context.addCookies([{ name: cookieName!, value: value.join("="), url: world.web.url }]);
  return pageAsking(browser, acceptLanguage);
}

/** The texts a reader sees or hears: text outside code, placeholders, labels for screen readers. */
function readerTexts(page: Page): Promise<string[]> {
  return page.locator("body").evaluate((body) => {
    const doc = body.ownerDocument;
    const out: string[] = [];
    const skip = "script, style, code, kbd, samp, template";
    const walker = doc.createTreeWalker(body, 4 /* NodeFilter.SHOW_TEXT */);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent?.trim();
      if (text && !n.parentElement?.closest(skip)) out.push(text);
    }
    for (const el of doc.querySelectorAll("[placeholder], [aria-label], [alt]")) {
      for (const a of ["placeholder", "aria-label", "alt"]) {
        const v = el.getAttribute(a);
        if (v) out.push(v);
      }
    }
    // A code shown as its own word, its key on hover: the word was missing.
    for (const el of doc.querySelectorAll("[title]")) {
      const title = el.getAttribute("title") ?? "";
      if (/^[a-z][a-z_ ]*$/.test(title) && el.textContent?.trim() === title && !el.closest(skip)) {
        out.push(`${title.replace(/ /g, "_")}_shown`);
      }
    }
    return out;
  });
}

/** Links to pages of the console from a page, without downloads and the sign-out. */
function consoleLinks(page: Page, origin: string): Promise<string[]> {
  return page.locator("body").evaluate((body, o) => {
    const out = new Set<string>();
    for (const a of body.ownerDocument.querySelectorAll("a[href]")) {
      const url = new URL(a.getAttribute("href") ?? "", body.ownerDocument.URL);
      if (url.origin !== o || /\.(csv|xlsx|pdf)$/.test(url.pathname) || url.pathname.startsWith("/static"))
        continue;
      url.hash = "";
      out.add(url.href);
    }
    return [...out];
  }, origin);
}

/** One page per shape of address (ids and tax ids alike), at most `limit` pages. */
const shape = (href: string) => new URL(href).pathname.replace(/[0-9a-f-]{36}|\d+/g, "N");

async function walk(page: Page, origin: string, extra: string[], limit = 60) {
  const findings = new Map<string, Finding[]>();
  const visited = new Set<string>();
  const shapes = new Set<string>();
  const asked = new Set(extra.map((p) => `${origin}${p}`));
  const queue = [`${origin}/`, ...asked];
  const english = englishOnlyWords();
  while (queue.length > 0 && visited.size < limit) {
    const href = queue.shift()!;
    if (visited.has(href) || (!asked.has(href) && shapes.has(shape(href)))) continue;
    visited.add(href);
    shapes.add(shape(href));
    await page.goto(href, { waitUntil: "domcontentloaded" });
    const found = (await readerTexts(page)).flatMap((t) => findingsIn(withoutUserData(t, userData), english));
    if (found.length > 0) findings.set(href.slice(origin.length), found);
    queue.push(...(await consoleLinks(page, origin)));
  }
  const report = Object.fromEntries(findings);
  writeFileSync(screenshotPath(`hungarian-findings-${extra.length}.json`), JSON.stringify(report, null, 1));
  return { findings: report, pages: visited.size };
}

describe("every page in Hungarian", () => {
  it("shows a clerk no English word, key, command, ISO date or bare system account", async () => {
    const page = await signedInPage("hanna");
    const { findings, pages } = await walk(page, world.web.url, [
      `/alerts/${alertId}`,
      `/payments/${batchId}`,
      `/businesses/${founded}`,
      `/lists/suppliers`,
      "/search?q=kft",
      "/changes?heading=bank_accounts&heading=status",
      "/changes?from=tegnap",
      "/businesses/00000000",
      "/alerts/999999",
    ]);
    expect(findings).toEqual({});
    expect(pages).toBeGreaterThan(12);
    await page.close();
  }, 300_000);

  it("shows an admin none either, on the admin pages and after apply now", async () => {
    const page = await signedInPage("adel");
    const { findings } = await walk(page, world.web.url, [
      "/users",
      "/rules",
      "/lists?applied=7&status=applied",
      "/lists?applied=8&status=in-sync",
      `/lists/suppliers`,
    ]);
    expect(findings).toEqual({});
    await page.close();
  }, 300_000);

  it("says who did something and when in words a clerk reads", async () => {
    const page = await signedInPage("hanna", "hu-HU");
    await page.goto(`${world.web.url}/alerts/${alertId}`);
    // biome-ignore lint/performance/useDomNodeTextContent: the text as a reader sees it
    const main = (await page.locator("main").innerText()).replace(/\s+/g, " ");
    expect(main).toContain("a rendszer („root” felhasználó)");
    // The SMTP server's own words stay, in a <details>, under a Hungarian summary.
    expect(main).toContain("Az SMTP-kiszolgáló visszautasította a levelet (550)");
    expect(await page.locator("details code", { hasText: SMTP_REPLY }).count()).toBe(1);
    await page.goto(`${world.web.url}/runs`);
    // biome-ignore lint/performance/useDomNodeTextContent: the text as a reader sees it
    const runs = (await page.locator("main").innerText()).replace(/\s+/g, " ");
    expect(runs).toMatch(/gépen futott \(folyamatazonosító: \d+\)/);
    expect(runs).not.toMatch(/, folyamat: \d+/);
    await page.close();
  });
});
