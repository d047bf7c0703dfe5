/**
 * Assignment stays inside the account: the inbox offers as assignees only the users given the
 * account shown, and an assignment to anyone else (a forged form naming them) is refused with a
 * page saying why, changing nothing.
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
let a: Database;
let b: Database;
let web: TestConsole;
let alphaAlerts: number[];
let betaAlerts: number[];

beforeAll(async () => {
  t = await createTestDatabase();
  a = await openAccount(t.url, "a");
  b = await openAccount(t.url, "b");
  alphaAlerts = await seedAlerts(a, [{ taxId: "11111111", name: "Alpha Kft" }]);
  betaAlerts = await seedAlerts(b, [{ taxId: "22222222", name: "Beta Zrt" }]);
  web = await startTestConsole(t.db, { env: { REGWATCH_ACCOUNTS_FILE: writeAccountsFile(["a", "b"]) } });
  await createUser(t.db, "ann", "reviewer");
  await createUser(t.db, "bea", "reviewer");
  await createUser(t.db, "cid", "reader");
  await createUser(t.db, "dan", "admin");
  await grantAccounts(t.db.sql, "ann", ["a"]);
  await grantAccounts(t.db.sql, "bea", ["b"]);
  await grantAccounts(t.db.sql, "cid", ["a", "b"]);
});
afterAll(async () => {
  await web?.close();
  await a?.close();
  await b?.close();
  await t?.drop();
});

/** The names the inbox's assignee select offers (after "nobody"). */
async function assignees(session: SignedIn): Promise<string[]> {
  const html = await (await getPage(`${web.url}/`, session)).text();
  const select = /<select name="assignee">([\s\S]*?)<\/select>/.exec(html);
  if (!select) throw new Error("the inbox has no assignee select");
  return [...select[1]!.matchAll(/<option value="([^"]*)"/g)].map((m) => m[1]!).filter((v) => v !== "");
}

async function assignedIn(db: Database, ids: number[]): Promise<(string | null)[]> {
  const rows = await db.sql<{ to: string | null }[]>`
    select assigned_to as to from ${db.sql.t.alerts} where id = any (${ids}::bigint[]) order by id`;
  return rows.map((r) => r.to);
}

async function assignEvents(db: Database): Promise<number> {
  const [row] = await db.sql<{ n: number }[]>`
    select count(*)::int as n from ${db.sql.t.alert_events} where action = 'assigned'`;
  return row!.n;
}

describe("the assignee list", () => {
  it("offers only the users given the account shown, whatever their role", async () => {
    expect(await assignees(await signIn(web.url, "ann"))).toEqual(["ann", "cid"]);
    expect(await assignees(await signIn(web.url, "bea"))).toEqual(["bea", "cid"]);
  });

  it("follows the account the session switches to", async () => {
    await createUser(t.db, "eve", "reviewer");
    await grantAccounts(t.db.sql, "eve", ["a", "b"]);
    const eve = await signIn(web.url, "eve");
    expect(await assignees(eve)).toEqual(["ann", "cid", "eve"]);
    expect((await postForm(`${web.url}/account`, eve, { account: "b" })).status).toBe(303);
    expect(await assignees(eve)).toEqual(["bea", "cid", "eve"]);
  });
});

describe("an assignment to a user who cannot see the account", () => {
  it("is refused from a forged form, naming the user and the account, and changes nothing", async () => {
    const ann = await signIn(web.url, "ann");
    const before = await assignEvents(a);
    for (const assignee of ["bea", "dan"]) {
      const answer = await postForm(`${web.url}/alerts/bulk`, ann, {
        ids: alphaAlerts.map(String),
        action: "assign",
        assignee,
        _account: "a",
      });
      expect(answer.status, assignee).toBe(400);
      const html = await answer.text();
      expect(html).toContain(`${assignee} has not been given the account a`);
      expect(html).toContain("Nothing was changed");
    }
    expect(await assignedIn(a, alphaAlerts)).toEqual(alphaAlerts.map(() => null));
    expect(await assignEvents(a)).toBe(before);
  });

  it("is said in Hungarian to a Hungarian reader", async () => {
    const ann = await signIn(web.url, "ann");
    await postForm(`${web.url}/language`, ann, { locale: "hu", _account: "a" });
    const answer = await postForm(`${web.url}/alerts/bulk`, ann, {
      ids: alphaAlerts.map(String),
      action: "assign",
      assignee: "bea",
      _account: "a",
    });
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain("bea nem kapott hozzáférést a(z) a fiókhoz");
    await postForm(`${web.url}/language`, ann, { locale: "en", _account: "a" });
  });

  it("goes through to a user given the account, in that account only", async () => {
    const ann = await signIn(web.url, "ann");
    const answer = await postForm(`${web.url}/alerts/bulk`, ann, {
      ids: alphaAlerts.map(String),
      action: "assign",
      assignee: "cid",
      _account: "a",
    });
    expect(answer.status).toBe(303);
    expect(await assignedIn(a, alphaAlerts)).toEqual(alphaAlerts.map(() => "cid"));
    expect(await assignedIn(b, betaAlerts)).toEqual(betaAlerts.map(() => null));
  });
});
