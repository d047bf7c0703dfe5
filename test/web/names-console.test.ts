/**
 * Issue 34, point 3 in the console, against a database filled by a sync against the emulator: a
 * business with a given name is shown "as given in <file>" in the inbox instead of "(name
 * unknown)"; the header's box finds businesses by given and registry names, by tax number and by
 * registration number, and says what a registry search costs before a reviewer spends it (over
 * HTTP and in Chromium); "look it up" fills the profile of a business the registry's search has
 * not returned yet, for reviewers only, with CSRF.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertAlertRule } from "../../src/alerts/sql/rules.ts";
import type { BusinessRecord } from "../../src/api/search-schemas.ts";
import { setConsoleLocale } from "../../src/console/users.ts";
import { type RunningEmulator, startEmulator } from "../../src/emulator/index.ts";
import { saveBusinesses } from "../../src/parse/save-businesses.ts";
import { saveGivenNames } from "../../src/search/sql/given-names.ts";
import { launchBrowser, type TestBrowser } from "../helpers/browser.ts";
import {
  createUser,
  getPage,
  postForm,
  type SignedIn,
  signIn,
  startTestConsole,
  TEST_PASSWORD,
  type TestConsole,
} from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { emulatorConfig, emulatorEnv, sampleTaxIds, seedList, syncAt } from "../helpers/sync.ts";

const MORNING = "2024-03-10T08:00:00+01:00";

describe("a name for every business in the console", () => {
  let emulator: RunningEmulator;
  let t: TestDatabase;
  let web: TestConsole;
  let reader: SignedIn;
  let reviewer: SignedIn;
  let unnamed: string;
  let browser: TestBrowser;
  let page: Page;

  beforeAll(async () => {
    emulator = await startEmulator({
      seed: 11,
      businesses: 600,
      now: MORNING,
      frozenClock: true,
      rateLimit: 200,
      realistic: true,
    });
    const taxIds = sampleTaxIds(emulator, 20);
    await seedList(emulator, { name: "suppliers", createdAt: "2024-01-15", taxIds });
    t = await createTestDatabase();
    await insertAlertRule(t.db.sql, {
      name: "every change",
      lists: [],
      headings: [],
      channel: "notify",
      target: "regwatch_alerts",
      digest: false,
    });
    const result = await syncAt(t.db.sql, emulatorConfig(emulator), emulator);
    if (result.error) throw result.error;
    // A business of the inbox that no change file or search record has named.
    const [row] = await t.db.sql<{ tax_id: string }[]>`
      select c.tax_id from regwatch.alerts a join regwatch.changes c on c.id = a.change_id
      order by a.id desc limit 1`;
    unnamed = row!.tax_id;
    await t.db.sql`update regwatch.business_profiles set name = null, name_source = null, headings = '{}'
                   where tax_id = ${unnamed}`;
    await t.db.sql`delete from regwatch.businesses where tax_id = ${unnamed}`;
    await saveGivenNames(t.db.sql, [
      { taxId: unnamed, name: "Zöldlevél Beszállító Kft.", source: "file supplier-master.csv" },
    ]);
    web = await startTestConsole(t.db, { now: new Date(MORNING), env: emulatorEnv(emulator) });
    await createUser(t.db, "rita", "reader");
    await createUser(t.db, "vera", "reviewer");
    reader = await signIn(web.url, "rita");
    reviewer = await signIn(web.url, "vera");
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await web?.close();
    await t?.drop();
    await emulator?.close();
  });

  const searches = () => emulator.requests().filter((r) => r.endpoint.startsWith("GET /v1/"));

  it("shows a given name in the inbox as given, not as (name unknown)", async () => {
    const html = await (await getPage(`${web.url}/`, reader)).text();
    expect(html).toContain("Zöldlevél Beszállító Kft. (as given in supplier-master.csv)");
    const business = await (await getPage(`${web.url}/businesses/${unnamed}`, reader)).text();
    expect(business).toContain("Zöldlevél Beszállító Kft. (as given in supplier-master.csv)");
  });

  it("says the given name, the search and the look-up offer in Hungarian to a Hungarian reviewer", async () => {
    await createUser(t.db, "hanna", "reviewer");
    await setConsoleLocale(t.db.sql, "hanna", "hu", null);
    const hanna = await signIn(web.url, "hanna");
    emulator.resetLog();
    const inbox = await (await getPage(`${web.url}/`, hanna)).text();
    expect(inbox).toContain("Zöldlevél Beszállító Kft. (a(z) supplier-master.csv fájlban megadott név)");
    expect(inbox).not.toContain("as given in");
    const found = await (await getPage(`${web.url}/search?q=zoldlev`, hanna)).text();
    expect(found).toContain("<h1>Vállalkozás keresése</h1>");
    expect(found).toContain("A regwatch által ismert vállalkozások, amelyek illeszkednek erre: „zoldlev”:");
    expect(found).toMatch(/Ez a keresés a havi keretből még hátralévő \d+ keresés közül egyet használ fel/);
    expect(found).toContain(">Keresés a cégnyilvántartásban</button>");
    const business = await (await getPage(`${web.url}/businesses/${unnamed}`, hanna)).text();
    expect(business).toContain("Még nem kerestük a cégnyilvántartásban");
    expect(business).toContain("Cégjegyzékszám vagy név");
    expect(searches()).toEqual([]);
  });

  it("finds businesses by given name, by tax number and by registration number, sending nothing", async () => {
    emulator.resetLog();
    const byName = await (await getPage(`${web.url}/search?q=zoldlev`, reader)).text();
    expect(byName).toContain(`href="/businesses/${unnamed}"`);
    expect(byName).toContain("as given in supplier-master.csv");
    expect(byName).toMatch(/This search uses 1 of your \d+ remaining monthly searches/);
    expect(byName).toContain("A reviewer or admin can search the registry");
    const byTax = await getPage(`${web.url}/search?q=${unnamed}-2-41`, reader);
    expect(byTax.status).toBe(303);
    expect(byTax.headers.get("location")).toBe(`/businesses/${unnamed}`);
    // A search record regwatch keeps (as a lookup leaves it) is found by its registration number.
    const [record] = emulator.sampleBusinesses({ type: "companies", limit: 5 }).slice(4);
    const { tax_id, ...fields } = record!;
    await saveBusinesses(t.db.sql, [fields as BusinessRecord], "Europe/Budapest");
    const known = { tax_id: String(tax_id), registration_number: String(record!.registration_number) };
    const byReg = await getPage(`${web.url}/search?q=${known!.registration_number}`, reader);
    expect(byReg.status).toBe(303);
    expect(byReg.headers.get("location")).toBe(`/businesses/${known!.tax_id}`);
    expect(searches()).toEqual([]);
  });

  it("spends a registry search only for a reviewer's confirmed POST with CSRF", async () => {
    const [company] = emulator.sampleBusinesses({ type: "companies", limit: 1 });
    const word = String(company!.full_name).split(" ")[0]!;
    emulator.resetLog();
    expect((await postForm(`${web.url}/search/registry`, reader, { q: word, kind: "name" })).status).toBe(
      403,
    );
    expect(
      (await postForm(`${web.url}/search/registry`, reviewer, { q: word, kind: "name" }, null)).status,
    ).toBe(403);
    expect(searches()).toEqual([]);
    const answer = await postForm(`${web.url}/search/registry`, reviewer, { q: word, kind: "name" });
    expect(answer.status).toBe(200);
    const html = await answer.text();
    expect(searches().map((r) => r.endpoint)).toEqual(["GET /v1/names"]);
    expect(html).toContain("The registry&#39;s answer for");
    const kept = await t.db.sql`select 1 from regwatch.businesses`;
    expect(kept.length).toBeGreaterThan(0);
  });

  it("looks up a business with no registry record and fills its profile (reviewer, CSRF)", async () => {
    const [company] = emulator.sampleBusinesses({ type: "companies", limit: 3 }).slice(2);
    const taxId = String(company!.tax_id);
    await saveGivenNames(t.db.sql, [{ taxId, name: "Kézi Név Kft.", source: "user anna" }]);
    const before = await (await getPage(`${web.url}/businesses/${taxId}`, reviewer)).text();
    expect(before).toContain("Kézi Név Kft. (as given by anna)");
    expect(before).toContain(`action="/businesses/${taxId}/lookup"`);
    expect(before).toContain('name="_account"');
    emulator.resetLog();
    const refused = await postForm(`${web.url}/businesses/${taxId}/lookup`, reader, {
      value: String(company!.registration_number),
    });
    expect(refused.status).toBe(403);
    const noCsrf = await postForm(
      `${web.url}/businesses/${taxId}/lookup`,
      reviewer,
      { value: String(company!.registration_number) },
      null,
    );
    expect(noCsrf.status).toBe(403);
    expect(searches()).toEqual([]);
    const done = await postForm(`${web.url}/businesses/${taxId}/lookup`, reviewer, {
      value: String(company!.registration_number),
    });
    expect(done.status).toBe(303);
    expect(searches().map((r) => r.endpoint)).toEqual(["GET /v1/reg-numbers"]);
    const after = await (await getPage(`${web.url}/businesses/${taxId}`, reviewer)).text();
    expect(after).toContain(String(company!.full_name).replace(/&/g, "&amp;"));
    expect(after).not.toContain("as given by anna");
    expect(after).not.toContain("/lookup");
  });

  it("in Chromium: the header box finds a name and the registry search is confirmed by its cost", async () => {
    web.setNow(new Date());
    browser = await launchBrowser();
    page = await browser.context.newPage();
    await page.goto(`${web.url}/login`);
    await page.fill('input[name="username"]', "vera");
    await page.fill('input[name="password"]', TEST_PASSWORD);
    await Promise.all([page.waitForURL(`${web.url}/`), page.click('button[type="submit"]')]);
    await page.fill("#nav-search", "Zöldlevél");
    await Promise.all([page.waitForURL(/\/search\?q=/), page.press("#nav-search", "Enter")]);
    expect(await page.textContent("section.search-stored")).toContain("as given in supplier-master.csv");
    expect(await page.textContent("p.quota")).toMatch(/uses 1 of your \d+ remaining monthly searches/);
    emulator.resetLog();
    await Promise.all([page.waitForLoadState("load"), page.click("section.search-ask button")]);
    await page.waitForSelector("section.search-registry");
    expect(searches().map((r) => r.endpoint)).toEqual(["GET /v1/names"]);
  });
});
