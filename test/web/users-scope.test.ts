/**
 * Issue 48, point 1, over real HTTP: in a fleet of acme and globex, an admin given only acme
 * sees and changes only the users whose accounts are all acme's, and gives only acme. Adding a
 * user with globex, resetting a globex user's password, or changing the role or language of, or
 * removing, a user who holds both answers 403 and leaves every stored row as it was; the same
 * forms work for an acme-only user, and an admin who holds both accounts reaches everyone.
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
import { openAccount, writeAccountsFile } from "./accounts-fixture.ts";

let t: TestDatabase;
let acme: Database;
let globex: Database;
let web: TestConsole;
let ada: SignedIn;

beforeAll(async () => {
  t = await createTestDatabase();
  acme = await openAccount(t.url, "acme");
  globex = await openAccount(t.url, "globex");
  web = await startTestConsole(t.db, {
    env: { REGWATCH_ACCOUNTS_FILE: writeAccountsFile(["acme", "globex"]) },
  });
  const users: [string, "admin" | "reviewer" | "reader", string[]][] = [
    ["ada", "admin", ["acme"]],
    ["olga", "admin", ["acme", "globex"]],
    ["gina", "reader", ["globex"]],
    ["bea", "reviewer", ["acme", "globex"]],
    ["ann", "reader", ["acme"]],
    ["amos", "reviewer", ["acme"]],
  ];
  for (const [name, role, accounts] of users) {
    await createUser(t.db, name, role);
    await grantAccounts(t.db.sql, name, accounts);
  }
  ada = await signIn(web.url, "ada");
});
afterAll(async () => {
  await web?.close();
  await acme?.close();
  await globex?.close();
  await t?.drop();
});

/** Every stored user with what a form could change, and every grant. */
async function storedUsers(): Promise<unknown> {
  const { sql } = t.db;
  return {
    users: await sql`
      select name, role, locale, password_hash, updated_at from ${sql.t.console_users} order by name`,
    grants: await sql`
      select u.name, a.account from ${sql.t.console_user_accounts} a
      join ${sql.t.console_users} u on u.id = a.user_id order by 1, 2`,
  };
}

const page = async (session: SignedIn) => (await getPage(`${web.url}/users`, session)).text();

describe("an admin given only acme", () => {
  it("lists only the users whose accounts are all acme's, and offers only acme to give", async () => {
    const html = await page(ada);
    for (const name of ["ada", "ann", "amos"]) expect(html).toContain(`<tr data-user="${name}">`);
    for (const name of ["olga", "gina", "bea"]) expect(html).not.toContain(`data-user="${name}"`);
    expect(html).toContain('name="accounts" value="acme"');
    expect(html).not.toContain('name="accounts" value="globex"');
    expect(html).toContain("Listed are the users whose accounts you hold all of");
  });

  const refusals: [string, Record<string, string | string[]>, string][] = [
    ["/users/add", { name: "eve", role: "admin", accounts: ["acme", "globex"] }, "account globex"],
    ["/users/add", { name: "eve", role: "reader", accounts: "globex" }, "account globex"],
    ["/users/gina/password", {}, "gina holds an account you do not hold"],
    ["/users/bea/password", {}, "bea holds an account you do not hold"],
    ["/users/bea/role", { role: "reader" }, "bea holds"],
    ["/users/olga/role", { role: "reader" }, "olga holds"],
    ["/users/bea/language", { locale: "hu" }, "bea holds"],
    ["/users/bea/remove", { confirm: "on" }, "bea holds"],
    ["/users/olga/remove", { confirm: "on" }, "olga holds"],
  ];
  it.each(refusals)("cannot POST %s %o: 403, nothing changed", async (path, fields, says) => {
    const before = await storedUsers();
    const answer = await postForm(`${web.url}${path}`, ada, fields);
    expect(answer.status).toBe(403);
    const body = await answer.text();
    expect(body).toContain("Nothing was changed");
    expect(body).toContain(says);
    expect(body).not.toContain('class="new-password"');
    expect(await storedUsers()).toEqual(before);
  });

  it("leaves the others' passwords working", async () => {
    await signIn(web.url, "gina");
    await signIn(web.url, "bea");
  });

  it("still adds, resets, changes and removes a user holding only acme", async () => {
    const added = await postForm(`${web.url}/users/add`, ada, {
      name: "abe",
      role: "reader",
      accounts: "acme",
    });
    expect(added.status).toBe(200);
    const newPassword = /<code class="new-password">([^<]+)<\/code>/.exec(await added.text())?.[1];
    expect(newPassword).toBeDefined();
    await signIn(web.url, "abe", newPassword);

    const reset = await postForm(`${web.url}/users/ann/password`, ada, {});
    expect(reset.status).toBe(200);
    const annPassword = /<code class="new-password">([^<]+)<\/code>/.exec(await reset.text())?.[1];
    await signIn(web.url, "ann", annPassword);

    expect((await postForm(`${web.url}/users/ann/role`, ada, { role: "reviewer" })).status).toBe(303);
    expect((await postForm(`${web.url}/users/ann/language`, ada, { locale: "hu" })).status).toBe(303);
    expect((await postForm(`${web.url}/users/amos/remove`, ada, { confirm: "on" })).status).toBe(303);
    const { sql } = t.db;
    expect(
      await sql`select name, role, locale from ${sql.t.console_users} where name in ('abe', 'ann', 'amos') order by name`,
    ).toEqual([
      { name: "abe", role: "reader", locale: null },
      { name: "ann", role: "reviewer", locale: "hu" },
    ]);
    expect(
      await sql`select a.account from ${sql.t.console_user_accounts} a
        join ${sql.t.console_users} u on u.id = a.user_id where u.name = 'abe'`,
    ).toEqual([{ account: "acme" }]);
  });
});

describe("an admin given every account", () => {
  it("lists and reaches every user", async () => {
    const olga = await signIn(web.url, "olga");
    const html = await page(olga);
    for (const name of ["ada", "olga", "gina", "bea", "ann"]) expect(html).toContain(`data-user="${name}"`);
    expect(html).toMatch(/<tr data-user="bea">[\s\S]*?<td>acme, globex<\/td>/);
    expect(html).toContain('name="accounts" value="globex"');
    expect(html).not.toContain("Listed are the users whose accounts you hold all of");
    expect((await postForm(`${web.url}/users/gina/password`, olga, {})).status).toBe(200);
    expect((await postForm(`${web.url}/users/bea/language`, olga, { locale: "en" })).status).toBe(303);
  });
});
