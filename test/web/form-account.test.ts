/**
 * A form acts only on the account it was shown for (fleet mode), over HTTP: a user shown acme's
 * alert switches to globex (another tab), then sends acme's form: 409 naming acme, and nothing
 * changes in either account. The same for the inbox's bulk action, payee verification and the
 * payment upload; a form that names the account shown acts as before.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantAccounts } from "../../src/console/access.ts";
import type { Database } from "../../src/db/connect.ts";
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
import { openAccount, seedAlerts, writeAccountsFile } from "./accounts-fixture.ts";

let t: TestDatabase;
let acme: Database;
let globex: Database;
let web: TestConsole;
let anna: SignedIn;
let alertId: number;

beforeAll(async () => {
  t = await createTestDatabase();
  acme = await openAccount(t.url, "acme");
  globex = await openAccount(t.url, "globex");
  [alertId] = (await seedAlerts(acme, [{ taxId: "31313131", name: "Acme Mill Kft" }])) as [number];
  const [globexId] = await seedAlerts(globex, [{ taxId: "42424242", name: "Globex Port Zrt" }]);
  expect(globexId).toBe(alertId); // the same id in both accounts: the case that went wrong
  web = await startTestConsole(t.db, {
    env: { REGWATCH_ACCOUNTS_FILE: writeAccountsFile(["acme", "globex"]) },
  });
  await createUser(t.db, "anna", "reviewer");
  await grantAccounts(t.db.sql, "anna", ["acme", "globex"]);
  anna = await signIn(web.url, "anna");
});
afterAll(async () => {
  await web?.close();
  await acme?.close();
  await globex?.close();
  await t?.drop();
});

const statusIn = async (db: Database) =>
  (await db.sql<{ status: string }[]>`select status from ${db.sql.t.alerts} where id = ${alertId}`)[0]!
    .status;
const eventsIn = async (db: Database) =>
  (
    await db.sql<
      { n: number }[]
    >`select count(*)::int as n from ${db.sql.t.alert_events} where alert_id = ${alertId}`
  )[0]!.n;

async function show(account: string) {
  expect((await postForm(`${web.url}/account`, anna, { account })).status).toBe(303);
}

describe("a form shown for one account, sent while the session shows another", () => {
  it("carries its account in every form that acts on data", async () => {
    await show("acme");
    const html = await (await getPage(`${web.url}/alerts/${alertId}`, anna)).text();
    const forms = html.match(/<form method="post" action="\/alerts\/[^"]+">[\s\S]*?<\/form>/g) ?? [];
    expect(forms).toHaveLength(4);
    for (const f of forms) expect(f).toContain('name="_account" value="acme"');
    const inbox = await (await getPage(`${web.url}/`, anna)).text();
    expect(inbox).toMatch(/id="bulk">[\s\S]*name="_account" value="acme"/);
    const payments = await (await getPage(`${web.url}/payments`, anna)).text();
    expect(payments).toMatch(/enctype="multipart\/form-data">[\s\S]*name="_account" value="acme"/);
  });

  it("answers 409 naming the page's account, and changes nothing in either", async () => {
    const before = [await eventsIn(acme), await eventsIn(globex)];
    await show("acme");
    await show("globex"); // the other tab
    const stale = await postForm(`${web.url}/alerts/${alertId}/resolve`, anna, {
      note: "acme's note",
      _account: "acme",
    });
    expect(stale.status).toBe(409);
    const page = await stale.text();
    expect(page).toContain("shown for the account acme");
    expect(page).toContain("now looking at globex");
    const missing = await postForm(`${web.url}/alerts/${alertId}/ack`, anna, { note: "no account" });
    expect(missing.status).toBe(409);
    const bulk = await postForm(`${web.url}/alerts/bulk`, anna, {
      action: "resolve",
      ids: String(alertId),
      _account: "acme",
    });
    expect(bulk.status).toBe(409);
    expect([await statusIn(acme), await statusIn(globex)]).toEqual(["open", "open"]);
    expect([await eventsIn(acme), await eventsIn(globex)]).toEqual(before);
  });

  it("refuses a payee verification and an upload shown for the other account", async () => {
    await show("globex");
    const verify = await postForm(`${web.url}/payments/verify`, anna, {
      account: "11773016-11111018",
      tax_id: "31313131",
      note: "phoned",
      _account: "acme",
    });
    expect(verify.status).toBe(409);
    expect(await verify.text()).toContain("shown for the account acme");
    const form = new FormData();
    form.append("_csrf", anna.csrf);
    form.append("_account", "acme");
    form.append(
      "file",
      new Blob(["bank_account;amount\n11773016-11111018;100\n"], { type: "text/csv" }),
      "b.csv",
    );
    const upload = await fetch(`${web.url}/payments`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: anna.cookie },
      body: form,
    });
    expect(upload.status).toBe(409);
    for (const db of [acme, globex]) {
      const [v] = await db.sql<
        { n: number }[]
      >`select count(*)::int as n from ${db.sql.t.payee_verifications}`;
      const [b] = await db.sql<{ n: number }[]>`select count(*)::int as n from ${db.sql.t.payment_batches}`;
      expect([v!.n, b!.n]).toEqual([0, 0]);
    }
  });

  it("acts when the form names the account shown", async () => {
    await show("globex");
    const done = await postForm(`${web.url}/alerts/${alertId}/resolve`, anna, {
      note: "globex's own note",
      _account: "globex",
    });
    expect(done.status).toBe(303);
    expect([await statusIn(acme), await statusIn(globex)]).toEqual(["open", "resolved"]);
  });
});
