/**
 * The console in front of two accounts: a user sees only the accounts given, one at a time; the
 * switcher lists only those; every request checks the grant again (a revoke ends access at the
 * next page); actions and downloads work on the account shown; without an accounts file there
 * is no switcher at all.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantAccounts, revokeAccounts } from "../../src/console/access.ts";
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

const ALPHA = { taxId: "11111111", name: "Alpha Kft" };
const BETA = { taxId: "22222222", name: "Beta Zrt" };
const BETA_TWO = { taxId: "23232323", name: "Beta Two Bt" };

let t: TestDatabase;
let a: Database;
let b: Database;
let web: TestConsole;
let alphaAlerts: number[];
let betaAlerts: number[];

beforeAll(async () => {
  t = await createTestDatabase();
  a = await openAccount(t.url, "a");
  b = await openAccount(t.url, "b");
  alphaAlerts = await seedAlerts(a, [ALPHA]);
  betaAlerts = await seedAlerts(b, [BETA, BETA_TWO]);
  web = await startTestConsole(t.db, { env: { REGWATCH_ACCOUNTS_FILE: writeAccountsFile(["a", "b"]) } });
  await createUser(t.db, "ann", "reviewer");
  await createUser(t.db, "bob", "reader");
  await createUser(t.db, "nina", "admin");
  await createUser(t.db, "carl", "reviewer");
  await grantAccounts(t.db.sql, "ann", ["a"]);
  await grantAccounts(t.db.sql, "bob", ["a", "b"]);
  await grantAccounts(t.db.sql, "carl", ["a", "b"]);
});
afterAll(async () => {
  await web?.close();
  await a?.close();
  await b?.close();
  await t?.drop();
});

async function text(url: string, session: SignedIn): Promise<{ status: number; body: string }> {
  const answer = await getPage(url, session);
  return { status: answer.status, body: await answer.text() };
}

describe("a user given one account", () => {
  let ann: SignedIn;
  beforeAll(async () => {
    ann = await signIn(web.url, "ann");
  });

  it("sees that account's alerts, names it, and has no switcher", async () => {
    const inbox = await text(`${web.url}/`, ann);
    expect(inbox.status).toBe(200);
    expect(inbox.body).toContain(ALPHA.name);
    expect(inbox.body).not.toContain(BETA.name);
    expect(inbox.body).toContain(`<span class="account">Account a</span>`);
    expect(inbox.body).not.toContain('action="/account"');
  });

  it("downloads only that account's changes", async () => {
    const csv = await text(`${web.url}/changes.csv?since=2026-11-01`, ann);
    expect(csv.status).toBe(200);
    expect(csv.body).toContain(ALPHA.taxId);
    expect(csv.body).not.toContain(BETA.taxId);
    expect(csv.body).not.toContain(BETA_TWO.taxId);
  });

  it("cannot switch to the other account: 403 and the session still shows its own", async () => {
    const refused = await postForm(`${web.url}/account`, ann, { account: "b" });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("nothing was changed");
    const unknown = await postForm(`${web.url}/account`, ann, { account: "zzz" });
    expect(unknown.status).toBe(403);
    const inbox = await text(`${web.url}/`, ann);
    expect(inbox.body).toContain(ALPHA.name);
    expect(inbox.body).not.toContain(BETA.name);
  });

  it("reaches nothing of the other account by any URL", async () => {
    // b's second alert has an id a does not have; b's businesses are unknown in a.
    const onlyInB = betaAlerts.find((id) => !alphaAlerts.includes(id))!;
    expect((await text(`${web.url}/alerts/${onlyInB}`, ann)).status).toBe(404);
    const business = await text(`${web.url}/businesses/${BETA.taxId}`, ann);
    expect(business.status).toBe(404);
    expect(business.body).not.toContain(BETA.name);
    // An id both accounts have shows a's alert; an account named in the query is ignored.
    const shared = await text(`${web.url}/alerts/${alphaAlerts[0]}?account=b`, ann);
    expect(shared.body).toContain(ALPHA.taxId);
    expect(shared.body).not.toContain(BETA.taxId);
    for (const url of ["/a/b/", "/b/", "/changes?account=b&since=2026-11-01", "/runs?account=b"]) {
      const page = await text(`${web.url}${url}`, ann);
      expect(page.body, url).not.toContain(BETA.taxId);
      expect(page.body, url).not.toContain(BETA.name);
    }
  });
});

describe("a user given both accounts", () => {
  it("switches with the form's select and sees the other account's data", async () => {
    const bob = await signIn(web.url, "bob");
    const first = await text(`${web.url}/changes?since=2026-11-01`, bob);
    expect(first.body).toContain(ALPHA.name);
    expect(first.body).toContain('action="/account"');
    expect(first.body).toMatch(/<option value="a" selected>a<\/option><option value="b">b<\/option>/);
    expect(first.body).toContain('name="return" value="/changes"');

    const switched = await postForm(`${web.url}/account`, bob, { account: "b", return: "/changes" });
    expect(switched.status).toBe(303);
    expect(switched.headers.get("location")).toBe("/changes");
    const inbox = await text(`${web.url}/`, bob);
    expect(inbox.body).toContain(BETA.name);
    expect(inbox.body).toContain(BETA_TWO.name);
    expect(inbox.body).not.toContain(ALPHA.name);
    const csv = await text(`${web.url}/changes.csv?since=2026-11-01`, bob);
    expect(csv.body).toContain(BETA.taxId);
    expect(csv.body).not.toContain(ALPHA.taxId);
  });

  it("cannot switch without the session's CSRF token", async () => {
    const bob = await signIn(web.url, "bob");
    const forged = await postForm(`${web.url}/account`, bob, { account: "b" }, null);
    expect(forged.status).toBe(403);
    expect((await text(`${web.url}/`, bob)).body).toContain(ALPHA.name);
  });

  it("acts on the account shown only", async () => {
    const carl = await signIn(web.url, "carl");
    const id = alphaAlerts[0]!;
    expect(betaAlerts).toContain(id); // the same id exists in both accounts
    const done = await postForm(`${web.url}/alerts/${id}/ack`, carl, { note: "seen", _account: "a" });
    expect(done.status).toBe(303);
    const [inA] = await a.sql<{ status: string }[]>`select status from ${a.sql.t.alerts} where id = ${id}`;
    const [inB] = await b.sql<{ status: string }[]>`select status from ${b.sql.t.alerts} where id = ${id}`;
    expect(inA!.status).toBe("acknowledged");
    expect(inB!.status).toBe("open");
  });

  it("loses an account at the next request once it is revoked", async () => {
    await grantAccounts(t.db.sql, "bob", ["b"]);
    const bob = await signIn(web.url, "bob");
    expect((await postForm(`${web.url}/account`, bob, { account: "b" })).status).toBe(303);
    expect((await text(`${web.url}/`, bob)).body).toContain(BETA.name);

    await revokeAccounts(t.db.sql, "bob", ["b"]);
    // The change feed (the inbox may have lost a's alert to carl's acknowledgement above).
    const after = await text(`${web.url}/changes?since=2026-11-01`, bob);
    expect(after.body).toContain(ALPHA.name);
    expect(after.body).not.toContain(BETA.name);
    expect(after.body).not.toContain('action="/account"');
    expect((await postForm(`${web.url}/account`, bob, { account: "b" })).status).toBe(403);
    await grantAccounts(t.db.sql, "bob", ["b"]);
  });
});

describe("a grant of an account the file no longer lists", () => {
  it("is ignored: not shown, not offered, not reachable", async () => {
    await createUser(t.db, "otto", "reader");
    await grantAccounts(t.db.sql, "otto", ["a", "gone"]);
    const otto = await signIn(web.url, "otto");
    const inbox = await text(`${web.url}/`, otto);
    expect(inbox.body).toContain(`<span class="account">Account a</span>`);
    expect(inbox.body).not.toContain('action="/account"');
    expect((await postForm(`${web.url}/account`, otto, { account: "gone" })).status).toBe(403);
  });
});

describe("a user given no account", () => {
  it("sees a page saying so, for every page and download", async () => {
    const nina = await signIn(web.url, "nina");
    for (const url of ["/", "/changes.csv?since=2026-11-01", "/payments", "/alerts/1"]) {
      const page = await text(`${web.url}${url}`, nina);
      expect(page.status, url).toBe(403);
      expect(page.body, url).toContain("has not been given any account");
      expect(page.body, url).not.toContain(ALPHA.name);
    }
    // The home pages still answer; an admin holding no account administers only users holding none.
    const users = await text(`${web.url}/users`, nina);
    expect(users.status).toBe(200);
    expect(users.body).not.toContain('data-user="bob"');
    expect(users.body).toContain("Listed are the users whose accounts you hold all of");
    expect(users.body).toMatch(
      /<tr data-user="nina">[\s\S]*?<option value="admin" selected>admin<\/option>[\s\S]*?<td>none<\/td>/,
    );
    expect((await postForm(`${web.url}/account`, nina, { account: "a" })).status).toBe(403);
  });
});

describe("without an accounts file", () => {
  it("shows no account and no switcher; POST /account is not a page", async () => {
    const plain = await startTestConsole(t.db);
    try {
      const ann = await signIn(plain.url, "ann");
      const inbox = await text(`${plain.url}/`, ann);
      expect(inbox.status).toBe(200);
      expect(inbox.body).not.toContain('action="/account"');
      expect(inbox.body).not.toContain(`<span class="account">`);
      expect((await postForm(`${plain.url}/account`, ann, { account: "a" })).status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
