/**
 * The admin pages over real HTTP (issue 34, point 5) against the emulator: the sign-in page of a
 * console without users; rules added, refused with the CLI's checks, edited, paused and removed
 * with their history; users added and reset with a password shown once (never a stored one),
 * the last admin kept; businesses added to and removed from a desired list (by tax number or by
 * registration number through search); "apply now" refused while another run holds the lock or
 * when the plan changed, and run when confirmed. A reviewer can POST none of these forms (403).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../src/emulator/index.ts";
import { acquireRunLock } from "../../src/run/lock.ts";
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
import { emulatorEnv, sampleTaxIds, seedList } from "../helpers/sync.ts";

let emulator: RunningEmulator;
let t: TestDatabase;
let web: TestConsole;
let ada: SignedIn;
let viktor: SignedIn;
let taxIds: string[];

const text = async (answer: Response | Promise<Response>) => (await answer).text();

beforeAll(async () => {
  emulator = await startEmulator({
    seed: 7,
    businesses: 400,
    now: "2026-11-24T08:00:00+01:00",
    frozenClock: true,
    rateLimit: 100,
  });
  taxIds = sampleTaxIds(emulator, 4);
  await seedList(emulator, { name: "suppliers", createdAt: "2026-10-01", taxIds: [taxIds[0]!] });
  t = await createTestDatabase();
  web = await startTestConsole(t.db, { env: emulatorEnv(emulator) });
});
afterAll(async () => {
  await web?.close();
  await t?.drop();
  await emulator?.close();
});

describe("a console with no users", () => {
  it("says on its sign-in page how to create the first admin", async () => {
    const html = await text(fetch(`${web.url}/login`));
    expect(html).toContain("this console has no users");
    expect(html).toContain("regwatch users add NAME --role admin --password-stdin");
    const magyar = await text(fetch(`${web.url}/login`, { headers: { "accept-language": "hu-HU" } }));
    expect(magyar).toContain("Még senki sem tud bejelentkezni: ennek a konzolnak nincsenek felhasználói.");
    await createUser(t.db, "ada", "admin");
    await createUser(t.db, "viktor", "reviewer");
    expect(await text(fetch(`${web.url}/login`))).not.toContain("this console has no users");
    ada = await signIn(web.url, "ada");
    viktor = await signIn(web.url, "viktor");
  });
});

describe("roles", () => {
  it("lets a reviewer read the rules and lists but POST no admin form (403, nothing changed)", async () => {
    const rules = await text(getPage(`${web.url}/rules`, viktor));
    expect(rules).toContain("needs the admin role");
    expect(rules).not.toContain('action="/rules"');
    expect((await getPage(`${web.url}/users`, viktor)).status).toBe(403);
    const forms: [string, Record<string, string>][] = [
      ["/rules", { name: "x", channel: "notify", target: "x" }],
      ["/rules/x/state", { to: "paused" }],
      ["/users/add", { name: "eve", role: "admin" }],
      ["/users/ada/role", { role: "reader" }],
      ["/users/ada/password", {}],
      ["/users/ada/remove", { confirm: "on" }],
      ["/lists/members", { list: "suppliers", tax_id: taxIds[1]! }],
      ["/lists/members/remove", { list: "suppliers", tax_id: taxIds[0]! }],
      ["/lists/apply", { plan: "x", confirm: "on" }],
    ];
    for (const [path, fields] of forms) {
      const answer = await postForm(`${web.url}${path}`, viktor, fields);
      expect(answer.status, path).toBe(403);
    }
    expect(await t.db.sql`select 1 from regwatch.alert_rules`).toHaveLength(0);
    expect(await t.db.sql`select 1 from regwatch.console_users where name = 'eve'`).toHaveLength(0);
    expect(await t.db.sql`select 1 from regwatch.desired_items`).toHaveLength(0);
  });

  it("binds every admin form to its account and its session (_account and _csrf fields)", async () => {
    await postForm(`${web.url}/lists/members`, ada, { list: "suppliers", tax_id: taxIds[0]! });
    for (const path of ["/rules", "/users", "/lists", "/lists/suppliers"]) {
      const page = await text(getPage(`${web.url}${path}`, ada));
      const html = page.slice(page.indexOf("<main"));
      const forms = [...html.matchAll(/<form[^>]*method="post"[^>]*>([\s\S]*?)<\/form>/g)].map((m) => m[1]!);
      expect(forms.length, path).toBeGreaterThan(0);
      for (const body of forms) {
        expect(body).toContain('name="_csrf"');
        expect(body).toContain('name="_account"');
      }
    }
  });
});

describe("the rules page", () => {
  it("refuses what the CLI refuses, naming each problem, and stores nothing", async () => {
    const bad = await postForm(`${web.url}/rules`, ada, { name: "r", channel: "sms", target: "x" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("must be webhook, email or notify");
    const unknown = await postForm(`${web.url}/rules`, ada, {
      name: "r",
      channel: "email",
      target: "ops@example.com",
      lists: "nosuch",
    });
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain("no such list");
    const heading = await postForm(`${web.url}/rules`, ada, {
      name: "r",
      channel: "notify",
      target: "ops",
      other_headings: "bank_acounts",
    });
    expect(heading.status).toBe(400);
    expect(await heading.text()).toContain("no stored change has named this heading");
    expect(await t.db.sql`select 1 from regwatch.alert_rules`).toHaveLength(0);
  });

  it("adds, edits, pauses, resumes and removes a rule, each in its history by the admin", async () => {
    const added = await postForm(`${web.url}/rules`, ada, {
      name: "bank watch",
      channel: "email",
      target: "ops@example.com",
      lists: "suppliers",
      other_headings: "bank_accounts",
      new_heading: "on",
      note: "finance asked",
    });
    expect(added.status).toBe(303);
    expect(added.headers.get("location")).toBe("/rules?done=added&rule=bank+watch");
    const page = await text(getPage(`${web.url}${added.headers.get("location")}`, ada));
    expect(page).toContain("Rule bank watch was added");
    expect(page).toContain("No stored change has named Bank accounts (bank_accounts) yet");
    const edited = await postForm(`${web.url}/rules/bank%20watch`, ada, {
      channel: "email",
      target: "finance@example.com",
      lists: "suppliers",
      other_headings: "bank_accounts",
    });
    expect(edited.status).toBe(303);
    for (const to of ["paused", "resumed"]) {
      expect((await postForm(`${web.url}/rules/bank%20watch/state`, ada, { to })).status).toBe(303);
    }
    const unconfirmed = await postForm(`${web.url}/rules/bank%20watch/state`, ada, { to: "removed" });
    expect(unconfirmed.status).toBe(400);
    const removed = await postForm(`${web.url}/rules/bank%20watch/state`, ada, {
      to: "removed",
      confirm: "on",
    });
    expect(removed.status).toBe(303);
    const events = await t.db.sql<{ by: string; action: string; note: string | null }[]>`
      select by, action, note from regwatch.alert_events where alert_id is null order by id`;
    expect(events).toEqual([
      { by: "ada", action: "rule added", note: "finance asked" },
      { by: "ada", action: "rule edited", note: null },
      { by: "ada", action: "rule paused", note: null },
      { by: "ada", action: "rule resumed", note: null },
      { by: "ada", action: "rule removed", note: null },
    ]);
    const [rule] = await t.db.sql<{ target: string; removed: boolean }[]>`
      select target, removed_at is not null as removed from regwatch.alert_rules`;
    expect(rule).toEqual({ target: "finance@example.com", removed: true });
  });
});

describe("the users page", () => {
  it("adds a user with a generated password shown once, never the stored one", async () => {
    const answer = await postForm(`${web.url}/users/add`, ada, { name: "rita", role: "reader" });
    expect(answer.status).toBe(200);
    const html = await answer.text();
    const password = /<code class="new-password">([^<]+)<\/code>/.exec(html)?.[1];
    expect(password).toMatch(/^[A-Za-z0-9_-]{20}$/);
    expect(html).not.toContain("scrypt$");
    const [row] = await t.db.sql<{ hash: string }[]>`
      select password_hash as hash from regwatch.console_users where name = 'rita'`;
    expect(row!.hash).not.toContain(password!);
    await signIn(web.url, "rita", password);
    const later = await text(getPage(`${web.url}/users`, ada));
    expect(later).not.toContain(password!);
    expect(later).not.toContain("scrypt$");
  });

  it("resets a password: a new one shown once, the user's sessions ended", async () => {
    const answer = await postForm(`${web.url}/users/viktor/password`, ada, {});
    expect(answer.status).toBe(200);
    const password = /<code class="new-password">([^<]+)<\/code>/.exec(await answer.text())?.[1];
    expect((await getPage(`${web.url}/`, viktor)).status).toBe(303);
    viktor = await signIn(web.url, "viktor", password);
  });

  it("refuses to demote or remove the last admin (409), then allows it once another admin exists", async () => {
    const demote = await postForm(`${web.url}/users/ada/role`, ada, { role: "reviewer" });
    expect(demote.status).toBe(409);
    expect(await demote.text()).toContain("ada is the last admin");
    const remove = await postForm(`${web.url}/users/ada/remove`, ada, { confirm: "on" });
    expect(remove.status).toBe(409);
    expect((await postForm(`${web.url}/users/viktor/role`, ada, { role: "admin" })).status).toBe(303);
    const removeRita = await postForm(`${web.url}/users/rita/remove`, ada, { confirm: "on" });
    expect(removeRita.headers.get("location")).toBe("/users?done=removed&user=rita");
    expect(await t.db.sql`select 1 from regwatch.console_users where name = 'rita'`).toHaveLength(0);
    expect((await postForm(`${web.url}/users/viktor/role`, ada, { role: "reviewer" })).status).toBe(303);
  });

  it("refuses a bad user name, a bad role and a name taken", async () => {
    expect((await postForm(`${web.url}/users/add`, ada, { name: "a b", role: "reader" })).status).toBe(400);
    expect((await postForm(`${web.url}/users/add`, ada, { name: "bob", role: "root" })).status).toBe(400);
    expect((await postForm(`${web.url}/users/add`, ada, { name: "ada", role: "reader" })).status).toBe(409);
  });
});

describe("list members and apply now", () => {
  it("adds by tax number and by registration number (through search), refuses a bad tax number, removes", async () => {
    const bad = await postForm(`${web.url}/lists/members`, ada, { list: "suppliers", tax_id: "12345670" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("wrong check digit");
    const both = await postForm(`${web.url}/lists/members`, ada, {
      list: "suppliers",
      tax_id: taxIds[1]!,
      reg_number: "01-09-123456",
    });
    expect(both.status).toBe(400);
    const added = await postForm(`${web.url}/lists/members`, ada, { list: "suppliers", tax_id: taxIds[1]! });
    expect(added.headers.get("location")).toBe(`/lists/suppliers?done=added&tax_id=${taxIds[1]}`);
    const company = emulator.sampleBusinesses({ limit: 40 }).find((b) => b.type === "companies")!;
    const byReg = await postForm(`${web.url}/lists/members`, ada, {
      list: "suppliers",
      reg_number: String(company.registration_number),
    });
    expect(byReg.status).toBe(303);
    const base = String(company.tax_number).slice(0, 8);
    expect(byReg.headers.get("location")).toBe(`/lists/suppliers?done=added&tax_id=${base}`);
    const page = await text(getPage(`${web.url}/lists/suppliers`, ada));
    expect(page).toContain(`data-tax-id="${base}"`);
    const removed = await postForm(`${web.url}/lists/members/remove`, ada, {
      list: "suppliers",
      tax_id: base,
    });
    expect(removed.headers.get("location")).toBe(`/lists/suppliers?done=removed&tax_id=${base}`);
    expect(await text(getPage(`${web.url}${removed.headers.get("location")}`, ada))).toContain(
      `${base} was removed from suppliers`,
    );
  });

  it("says a registration number needs the search interface where none is configured", async () => {
    const bare = await startTestConsole(t.db);
    try {
      const session = await signIn(bare.url, "ada");
      const answer = await postForm(`${bare.url}/lists/members`, session, {
        list: "suppliers",
        reg_number: "01-09-123456",
      });
      expect(answer.status).toBe(400);
      expect(await answer.text()).toContain("not configured");
    } finally {
      await bare.close();
    }
  });

  it("applies the confirmed plan under the run lock; refuses while the lock is held or the plan changed", async () => {
    const lists = await text(getPage(`${web.url}/lists`, ada));
    const plan = /name="plan" value="([0-9a-f]+)"/.exec(lists)?.[1];
    expect(plan).toBeDefined();
    expect((await postForm(`${web.url}/lists/apply`, ada, { plan: plan! })).status).toBe(400);
    const lock = await acquireRunLock(t.db.sql);
    try {
      const locked = await postForm(`${web.url}/lists/apply`, ada, { plan: plan!, confirm: "on" });
      expect(locked.status).toBe(409);
      expect(await locked.text()).toContain("Another run holds the run lock right now");
    } finally {
      await lock.release();
    }
    const stale = await postForm(`${web.url}/lists/apply`, ada, { plan: "0".repeat(32), confirm: "on" });
    expect(stale.status).toBe(409);
    expect(await stale.text()).toContain("The plan has changed");
    const applied = await postForm(`${web.url}/lists/apply`, ada, { plan: plan!, confirm: "on" });
    expect(applied.status).toBe(303);
    expect(applied.headers.get("location")).toMatch(/^\/lists\?applied=\d+&status=applied$/);
    const [outcome] = await t.db.sql<{ n: number }[]>`
      select count(*)::int as n from regwatch.item_outcomes where tax_id = ${taxIds[1]!} and op = 'add' and code is null`;
    expect(outcome!.n).toBe(1);
  });
});

describe("the admin pages in Hungarian", () => {
  it("sets a user's language on the users page, and that user reads the rules and list pages in it", async () => {
    const set = await postForm(`${web.url}/users/viktor/language`, ada, { locale: "hu" });
    expect(set.status).toBe(303);
    const [row] = await t.db.sql<{ locale: string | null }[]>`
      select locale from regwatch.console_users where name = 'viktor'`;
    expect(row!.locale).toBe("hu");
    const users = await text(getPage(`${web.url}/users?done=language&user=viktor`, ada));
    expect(users).toMatch(/<tr data-user="viktor">[\s\S]*?<option value="hu" selected>Magyar<\/option>/);
    expect(users).toContain("viktor reads the console in the language chosen now.");
    const rules = await text(getPage(`${web.url}/rules`, viktor));
    expect(rules).toContain("<h1>Riasztási szabályok</h1>");
    expect(rules).toContain("felvételükhöz és módosításukhoz adminisztrátori szerepkör kell");
    expect(rules).not.toContain("needs the admin role");
    const inbox = await text(getPage(`${web.url}/`, viktor));
    expect(inbox).toContain("<h1>Beérkezett riasztások</h1>");
    expect(inbox).toContain("hozzám rendelve");
    const refused = await postForm(`${web.url}/users/viktor/language`, ada, { locale: "de" });
    expect(refused.status).toBe(400);
  });
});
