/**
 * Company sign-in with an accounts file: the role map's accounts are the accounts a person sees,
 * and each sign-in sets role and accounts to what the map gives then (a person moved to another
 * group sees the other account, with the other role, at their next sign-in).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/connect.ts";
import { freePort, startTestConsole, type TestConsole } from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import {
  CLIENT_SECRET,
  companySignIn,
  startProvider,
  type TestPerson,
  type TestProvider,
} from "../helpers/oidc-provider.ts";
import { openAccount, seedAlerts, writeAccountsFile } from "./accounts-fixture.ts";

let t: TestDatabase;
let a: Database;
let b: Database;
let op: TestProvider;
let web: TestConsole;
const people: Record<string, TestPerson> = { rita: { groups: ["finance"] } };

beforeAll(async () => {
  t = await createTestDatabase();
  a = await openAccount(t.url, "a");
  b = await openAccount(t.url, "b");
  await seedAlerts(a, [{ taxId: "11111111", name: "Alfa Számvitel Kft." }]);
  await seedAlerts(b, [{ taxId: "22222222", name: "Béta Logisztika Zrt." }]);
  const port = await freePort();
  const callback = `http://127.0.0.1:${port}/login/oidc/callback`;
  op = await startProvider({
    redirectUri: callback,
    postLogoutRedirectUri: `http://127.0.0.1:${port}/login`,
    people,
  });
  web = await startTestConsole(t.db, {
    port,
    env: {
      REGWATCH_ACCOUNTS_FILE: writeAccountsFile(["a", "b"]),
      REGWATCH_OIDC_ISSUER: op.issuer,
      REGWATCH_OIDC_CLIENT_ID: "regwatch",
      REGWATCH_OIDC_CLIENT_SECRET: CLIENT_SECRET,
      REGWATCH_OIDC_REDIRECT_URL: callback,
      REGWATCH_OIDC_SCOPES: "openid profile groups",
      REGWATCH_OIDC_ROLE_MAP: JSON.stringify([
        { claim: "groups", value: "finance", role: "reader", accounts: ["a"] },
        { claim: "groups", value: "ops", role: "admin", accounts: ["b"] },
      ]),
    },
  });
});
afterAll(async () => {
  await web?.close();
  await op?.close();
  await a?.close();
  await b?.close();
  await t?.drop();
});

async function inboxAs(login: string): Promise<string> {
  const answer = await companySignIn(web.url, login);
  expect(answer.status).toBe(303);
  const session = answer.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .find((c) => c.startsWith("regwatch_session="))!;
  const inbox = await fetch(`${web.url}/`, { headers: { cookie: session } });
  expect(inbox.status).toBe(200);
  return inbox.text();
}

async function accessOf(name: string) {
  const [row] = await t.db.sql<{ role: string; accounts: string[] }[]>`
    select u.role, array(select a.account from regwatch.console_user_accounts a
                         where a.user_id = u.id order by a.account) as accounts
    from regwatch.console_users u where u.name = ${name}`;
  return row;
}

describe("company sign-in in a fleet", () => {
  it("shows the accounts the map gives, and follows the groups at the next sign-in", async () => {
    const first = await inboxAs("rita");
    expect(first).toContain("Alfa Számvitel Kft.");
    expect(first).not.toContain("Béta Logisztika Zrt.");
    expect(await accessOf("rita")).toEqual({ role: "reader", accounts: ["a"] });

    people.rita = { groups: ["ops"] };
    const second = await inboxAs("rita");
    expect(second).toContain("Béta Logisztika Zrt.");
    expect(second).not.toContain("Alfa Számvitel Kft.");
    expect(await accessOf("rita")).toEqual({ role: "admin", accounts: ["b"] });
  });
});
