/**
 * Issue 49, point 11: a name for every business. Four watched businesses the registry has not
 * named: one with a registration number from its changes, one a payment batch paid on an account
 * (recorded with the built CLI, whose payee names become names "as given in" the file), one with
 * a given name, one with nothing to search by. `/names` states the cost before anything is spent;
 * one reviewer's action spends one search each (by registration number, account and name), names
 * the three, and says how many searches are left; a console with a smaller quota spends only what
 * is left. Over HTTP against the emulator, in English and Hungarian.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setConsoleLocale } from "../../src/console/users.ts";
import { type RunningEmulator, startEmulator } from "../../src/emulator/index.ts";
import { saveGivenNames } from "../../src/search/sql/given-names.ts";
import { runCli } from "../helpers/cli.ts";
import {
  createUser,
  getPage,
  postForm,
  type SignedIn,
  signIn,
  startTestConsole,
  type TestConsole,
} from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { emulatorConfig, emulatorEnv, seedList, syncAt } from "../helpers/sync.ts";

const MORNING = "2024-03-10T08:00:00+01:00";

type Company = Record<string, unknown> & { tax_id: string; full_name: string; registration_number: string };

describe("naming every unnamed watched business", () => {
  let emulator: RunningEmulator;
  let t: TestDatabase;
  let web: TestConsole;
  let reader: SignedIn;
  let reviewer: SignedIn;
  let dir: string;
  let byReg: Company;
  let byAccount: Company;
  let byName: Company;
  let clueless: Company;

  const searches = () =>
    emulator
      .requests()
      .filter((r) => r.endpoint.startsWith("GET /v1/"))
      .map((r) => r.endpoint);
  const unname = async (taxId: string, keepRegNumber: boolean) => {
    await t.db.sql`update regwatch.business_profiles set name = null, name_source = null,
                   registration_number = case when ${keepRegNumber} then registration_number end
                   where tax_id = ${taxId}`;
    await t.db.sql`delete from regwatch.businesses where tax_id = ${taxId}`;
  };

  beforeAll(async () => {
    emulator = await startEmulator({
      seed: 23,
      businesses: 400,
      now: MORNING,
      frozenClock: true,
      rateLimit: 200,
      realistic: true,
    });
    const companies = emulator
      .sampleBusinesses({ type: "companies", limit: 40 })
      .filter((c) => Array.isArray(c.bank_accounts) && c.bank_accounts.length > 0) as Company[];
    [byReg, byAccount, byName, clueless] = companies as [Company, Company, Company, Company];
    // The name is one the registry finds (the test's own check, before anything is counted).
    expect(await foundByName(emulator, byName)).toBe(true);
    const taxIds = [byReg, byAccount, byName, clueless].map((c) => String(c!.tax_id));
    await seedList(emulator, { name: "suppliers", createdAt: "2024-01-15", taxIds });
    t = await createTestDatabase();
    const result = await syncAt(t.db.sql, emulatorConfig(emulator), emulator);
    if (result.error) throw result.error;
    // The registry's number is known for the first only (as a change file would give it).
    await t.db.sql`insert into regwatch.business_profiles (tax_id, registration_number)
                   values (${byReg!.tax_id}, ${byReg!.registration_number})
                   on conflict (tax_id) do update set registration_number = excluded.registration_number`;
    await unname(byReg!.tax_id, true);
    for (const c of [byAccount!, byName!, clueless!]) await unname(c.tax_id, false);
    await saveGivenNames(t.db.sql, [{ taxId: byName!.tax_id, name: byName!.full_name, source: "user anna" }]);

    dir = await mkdtemp(path.join(tmpdir(), "regwatch-unnamed-"));
    const batch = path.join(dir, "szallitok-marcius.csv");
    const account = (byAccount!.bank_accounts as { bank_account: string }[])[0]!.bank_account;
    await writeFile(
      batch,
      `Adószám;Számlaszám;Összeg;Kedvezményezett neve\n${byAccount!.tax_id};${account};1000;Számlás Partner Kft.\n`,
    );
    const recorded = await runCli(["payments", "check", batch, "--record", "--json"], {
      DATABASE_URL: t.url,
    });
    expect(recorded.stderr).not.toMatch(/error/i);

    // The quota counts the real month (claims are dated by the real clock), so the console reads it too.
    web = await startTestConsole(t.db, {
      now: new Date(),
      env: emulatorEnv(emulator, { REGWATCH_SEARCH_MONTHLY_QUOTA: "10" }),
    });
    await createUser(t.db, "rita", "reader");
    await createUser(t.db, "vera", "reviewer");
    reader = await signIn(web.url, "rita");
    reviewer = await signIn(web.url, "vera");
  }, 240_000);
  afterAll(async () => {
    await web?.close();
    await t?.drop();
    await emulator?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("keeps a payment batch's payee name as given in its file", async () => {
    const page = await (await getPage(`${web.url}/businesses/${byAccount.tax_id}`, reader)).text();
    expect(page).toContain("Számlás Partner Kft. (as given in szallitok-marcius.csv)");
  });

  it("states what the action will cost before anything is spent, and lets no reader spend it", async () => {
    emulator.resetLog();
    const html = await (await getPage(`${web.url}/names`, reviewer)).text();
    expect(html).toContain(
      "4 watched businesses have no name from the registry yet; 3 of them can be looked up",
    );
    expect(html).toContain("Looking them up uses 3 searches of your 10 remaining this month (of 10)");
    expect(html).toContain(`registration number ${byReg.registration_number}`);
    expect(html).toMatch(/bank account \d{8}-\d{8}/);
    expect(html).toContain("1 business has neither a registration number");
    expect(html).toContain(">Look up 3 names</button>");
    const readerPage = await (await getPage(`${web.url}/names`, reader)).text();
    expect(readerPage).not.toContain('action="/names/look-up"');
    expect((await postForm(`${web.url}/names/look-up`, reader, {})).status).toBe(403);
    expect((await postForm(`${web.url}/names/look-up`, reviewer, {}, null)).status).toBe(403);
    expect(searches()).toEqual([]);
  });

  it("says the page in Hungarian to a Hungarian reader", async () => {
    await createUser(t.db, "hanna", "reviewer");
    await setConsoleLocale(t.db.sql, "hanna", "hu", null);
    const hanna = await signIn(web.url, "hanna");
    const html = await (await getPage(`${web.url}/names`, hanna)).text();
    expect(html).toContain("<h1>Név nélküli vállalkozások</h1>");
    expect(html).toContain("A keresésük 3 keresést használ fel a havi keretből még hátralévő 10 közül");
    expect(html).toContain(">3 név megkeresése</button>");
  });

  it("names the three in one action, one search each, and says how many searches are left", async () => {
    emulator.resetLog();
    const done = await postForm(`${web.url}/names/look-up`, reviewer, {});
    expect(done.status).toBe(303);
    expect(searches().sort()).toEqual(["GET /v1/bank-accounts", "GET /v1/names", "GET /v1/reg-numbers"]);
    const after = await (await getPage(`${web.url}${done.headers.get("location")}`, reviewer)).text();
    expect(after).toContain("3 businesses got their names.");
    expect(after).toContain("7 of 10 searches are left this month.");
    expect(after).toContain(
      "1 watched business has no name from the registry yet; none of them can be looked up",
    );
    expect(after).toContain(`>${clueless.tax_id}</a>`);
    expect(after).not.toContain('action="/names/look-up"');
    for (const c of [byReg, byAccount, byName]) {
      const page = await (await getPage(`${web.url}/businesses/${c.tax_id}`, reader)).text();
      expect(page).toContain(c.full_name.replace(/&/g, "&amp;"));
    }
  });

  it("spends no more than the month's quota leaves", async () => {
    for (const c of [byReg, byAccount, byName]) await unname(c.tax_id, c === byReg);
    const small = await startTestConsole(t.db, {
      now: new Date(),
      env: emulatorEnv(emulator, { REGWATCH_SEARCH_MONTHLY_QUOTA: "5" }),
    });
    try {
      const vera = await signIn(small.url, "vera");
      const before = await (await getPage(`${small.url}/names`, vera)).text();
      expect(before).toContain(
        "One action looks up 2 of the 3: 2 searches of your 2 remaining this month (of 5)",
      );
      emulator.resetLog();
      const done = await postForm(`${small.url}/names/look-up`, vera, {});
      expect(done.status).toBe(303);
      expect(searches()).toHaveLength(2);
      const after = await (await getPage(`${small.url}${done.headers.get("location")}`, vera)).text();
      expect(after).toContain("0 of 5 searches are left this month.");
      expect(after).toContain("The monthly search quota (5) is used up");
    } finally {
      await small.close();
    }
  });
});

async function foundByName(emulator: RunningEmulator, company: Company): Promise<boolean> {
  const address = `${emulator.url}/v1/names?value=${encodeURIComponent(company.full_name)}`;
  const answer = (await (await fetch(address, { headers: { "X-Api-Key": emulator.apiKey } })).json()) as {
    results: { tax_number?: string }[];
  };
  return answer.results.some((r) => r.tax_number?.startsWith(company.tax_id));
}
