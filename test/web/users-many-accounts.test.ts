/**
 * The users page in front of an accounts file of 1,000 accounts (issue 50, point 1): an admin
 * given 600 of them adds a user by typing or pasting account names, or by "every account you
 * hold", not through 600 check boxes; the users table names a user's first accounts and counts
 * the rest. A typed name the admin does not hold is refused (403) whether or not the accounts
 * file lists it, so the answer tells nobody which other accounts exist; an admin holding every
 * account is told which typed name the file does not list.
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
import { clientAccount, openAccount, THOUSAND_ACCOUNTS, writeAccountsFile } from "./accounts-fixture.ts";

const name = clientAccount;
const ALL = THOUSAND_ACCOUNTS;
const ANNS = ALL.slice(0, 600);

let t: TestDatabase;
let first: Database;
let web: TestConsole;
let ann: SignedIn;
let olga: SignedIn;

beforeAll(async () => {
  t = await createTestDatabase();
  // The page shows each admin's first account: only that one needs a schema.
  first = await openAccount(t.url, name(1));
  web = await startTestConsole(t.db, { env: { REGWATCH_ACCOUNTS_FILE: writeAccountsFile(ALL) } });
  await createUser(t.db, "ann", "admin");
  await createUser(t.db, "olga", "admin", undefined, "hu");
  await grantAccounts(t.db.sql, "ann", ANNS);
  await grantAccounts(t.db.sql, "olga", ALL);
  ann = await signIn(web.url, "ann");
  olga = await signIn(web.url, "olga");
}, 120_000);
afterAll(async () => {
  await web?.close();
  await first?.close();
  await t?.drop();
});

const page = async (session: SignedIn) => (await getPage(`${web.url}/users`, session)).text();

/** The accounts given to `user`, sorted. */
async function grantsOf(user: string): Promise<string[]> {
  const { sql } = t.db;
  const rows = await sql<{ account: string }[]>`
    select a.account from ${sql.t.console_user_accounts} a
    join ${sql.t.console_users} u on u.id = a.user_id where u.name = ${user} order by 1`;
  return rows.map((r) => r.account);
}

const userCount = async () =>
  (await t.db.sql<{ n: number }[]>`select count(*)::int as n from ${t.db.sql.t.console_users}`)[0]!.n;

describe("an admin given 600 of 1,000 accounts", () => {
  it("gets a box for account names and one for every account held, not a check box each", async () => {
    const html = await page(ann);
    expect(html).not.toContain('name="accounts"');
    expect(html).toContain('<textarea name="account_names"');
    expect(html).toContain('name="all_accounts" value="yes"> every account you hold (600)');
    const named = ANNS.slice(0, 10).join(", ");
    expect(html).toMatch(new RegExp(`<tr data-user="ann">[\\s\\S]*?<td>${named} and 590 more</td>`));
  });

  it("gives the typed names, each once, whatever separates them and in whatever case", async () => {
    const added = await postForm(`${web.url}/users/add`, ann, {
      name: "cleo",
      role: "reader",
      account_names: "client_0003, Client_0001\r\nclient_0002;client_0003 ",
    });
    expect(added.status).toBe(200);
    expect(await added.text()).toContain('class="new-password"');
    expect(await grantsOf("cleo")).toEqual([name(1), name(2), name(3)]);
  });

  it("gives every account it holds, and names beside them once", async () => {
    const added = await postForm(`${web.url}/users/add`, ann, {
      name: "dan",
      role: "reviewer",
      all_accounts: "yes",
      account_names: "client_0005",
    });
    expect(added.status).toBe(200);
    expect(await grantsOf("dan")).toEqual(ANNS);
  });

  const refused: [string, string][] = [
    ["an account another admin holds", "client_0700"],
    ["an account only olga holds", "secret_ledger"],
    ["an account no file lists", "no_such_account"],
  ];
  it.each(refused)("refuses %s alike: 403 naming it, nobody added", async (_, typed) => {
    const before = await userCount();
    const answer = await postForm(`${web.url}/users/add`, ann, {
      name: "eve",
      role: "reader",
      account_names: `client_0001 ${typed}`,
    });
    expect(answer.status).toBe(403);
    expect(await answer.text()).toContain(`you do not hold account ${typed}, so you cannot give it`);
    expect(await userCount()).toBe(before);
  });

  it("refuses more typed text than the box takes: 400 naming the field", async () => {
    const answer = await postForm(`${web.url}/users/add`, ann, {
      name: "eve",
      role: "reader",
      account_names: `${ANNS.join(" ")} ${"x".repeat(40_000)}`,
    });
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain("account_names");
    expect(await grantsOf("eve")).toEqual([]);
  });
});

describe("an admin given every account, in Hungarian", () => {
  it("is told which typed name the accounts file does not list, and counts in Hungarian", async () => {
    const html = await page(olga);
    expect(html).toContain("az összes fiók, amelyet Ön kapott (1");
    expect(html).toMatch(/<tr data-user="ann">[\s\S]*?<td>client_0001, [^<]* és még 590<\/td>/);
    const answer = await postForm(`${web.url}/users/add`, olga, {
      name: "fred",
      role: "reader",
      account_names: "secret_ledger no_such_account",
    });
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain("A fiókfájlban nincs „no_such_account” nevű fiók.");
    expect(await grantsOf("fred")).toEqual([]);
  });
});
