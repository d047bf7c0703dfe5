/**
 * The account switcher in front of an accounts file of 1,000 accounts: a user given hundreds of
 * them gets a search box in the header, not a select of every account; GET /account?q= lists a
 * bounded page of the user's own accounts that match (server-side), each with its switch button,
 * in English and Hungarian; an account the user was not given is never listed, counted or found.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantAccounts } from "../../src/console/access.ts";
import type { Database } from "../../src/db/connect.ts";
import { ACCOUNT_RESULTS, searchAccounts } from "../../src/web/account-search.ts";
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
import {
  clientAccount,
  openAccount,
  seedAlerts,
  THOUSAND_ACCOUNTS,
  writeAccountsFile,
} from "./accounts-fixture.ts";

const name = clientAccount;
const ALL = THOUSAND_ACCOUNTS;
const ANNS = ALL.slice(0, 600);
/** The other 400, secret_ledger among them: only bob holds it. */
const BOBS = ALL.slice(600);

let t: TestDatabase;
let opened: Database[] = [];
let web: TestConsole;
let ann: SignedIn;
let eva: SignedIn;

beforeAll(async () => {
  t = await createTestDatabase();
  // Only the accounts a page shows need a schema: each user's first, and the one switched to.
  opened = [await openAccount(t.url, name(1)), await openAccount(t.url, name(42))];
  await seedAlerts(opened[1]!, [{ taxId: "42424242", name: "Forty Two Kft" }]);
  web = await startTestConsole(t.db, { env: { REGWATCH_ACCOUNTS_FILE: writeAccountsFile(ALL) } });
  await createUser(t.db, "ann", "admin");
  await createUser(t.db, "bob", "admin");
  await createUser(t.db, "eva", "reader", undefined, "hu");
  await createUser(t.db, "nobody", "admin");
  await grantAccounts(t.db.sql, "ann", ANNS);
  await grantAccounts(t.db.sql, "bob", BOBS);
  await grantAccounts(t.db.sql, "eva", ANNS);
  ann = await signIn(web.url, "ann");
  eva = await signIn(web.url, "eva");
}, 120_000);
afterAll(async () => {
  await web?.close();
  for (const db of opened) await db.close();
  await t?.drop();
});

async function page(url: string, session: SignedIn): Promise<{ status: number; body: string }> {
  const answer = await getPage(url, session);
  return { status: answer.status, body: await answer.text() };
}

/** The names the search page offers as switch buttons, in order. */
const offered = (html: string) =>
  [...html.matchAll(/<input type="hidden" name="account" value="([^"]+)">/g)].map((m) => m[1]);

describe("a user given 600 of 1,000 accounts", () => {
  it("gets a search box in the header instead of a select of every account", async () => {
    const { status, body } = await page(`${web.url}/`, ann);
    expect(status).toBe(200);
    expect(body).not.toContain('<select id="nav-account"');
    expect(body).toMatch(/<form class="account" method="get" action="\/account" role="search"/);
    expect(body).toContain('<input id="nav-account" name="q" type="search"');
    expect(body).toContain("Account client_0001");
    expect(body).not.toContain(name(600));
  });

  it("lists a bounded page of the matching accounts, those starting with the text first", async () => {
    const { status, body } = await page(`${web.url}/account?q=CLIENT_05`, ann);
    expect(status).toBe(200);
    expect(body).toContain("100 of your 600 accounts match “client_05”.");
    expect(body).toContain(`The first ${ACCOUNT_RESULTS} are listed`);
    const names = offered(body);
    expect(names).toEqual(Array.from({ length: ACCOUNT_RESULTS }, (_, i) => name(500 + i)));
    // Every listed account has its own switch form with the session's token.
    expect(body.match(/<form method="post" action="\/account">/g)).toHaveLength(ACCOUNT_RESULTS);

    const inside = offered((await page(`${web.url}/account?q=42`, ann)).body);
    expect(inside).toEqual(ANNS.filter((n) => n.includes("42")).slice(0, ACCOUNT_RESULTS));
    expect(inside).toContain(name(420));
    expect(offered((await page(`${web.url}/account?q=${name(7)}`, ann)).body)).toEqual([name(7)]);
  });

  it("never lists, counts or finds an account the user was not given", async () => {
    for (const q of ["secret", name(601), "client_09", "", "_"]) {
      const { status, body } = await page(`${web.url}/account?q=${encodeURIComponent(q)}`, ann);
      expect(status).toBe(200);
      // The page repeats what was typed; no other trace of bob's accounts.
      const shown = body
        .replaceAll(`“${q}”`, "")
        .replaceAll(`value="${q}"`, "")
        .replaceAll(`q=${encodeURIComponent(q)}"`, "");
      expect(shown).not.toContain("secret_ledger");
      expect(shown).not.toContain(name(601));
      expect(body).not.toMatch(/1,000|\b1000\b|\b400\b/);
      expect(offered(body).every((n) => ANNS.includes(n!))).toBe(true);
    }
    const none = await page(`${web.url}/account?q=secret`, ann);
    expect(none.body).toContain("None of your 600 accounts matches “secret”.");
    expect(offered(none.body)).toEqual([]);
    const empty = await page(`${web.url}/account`, ann);
    expect(empty.body).toContain(`You have 600 accounts; the first ${ACCOUNT_RESULTS} by name:`);
    expect(offered(empty.body)).toEqual(ANNS.slice(0, ACCOUNT_RESULTS));
    // A user given none finds none, whatever is typed.
    const nobody = await signIn(web.url, "nobody");
    for (const q of ["", "client"]) {
      const alone = await page(`${web.url}/account?q=${q}`, nobody);
      expect(alone.status).toBe(200);
      expect(offered(alone.body)).toEqual([]);
    }
    expect((await page(`${web.url}/account`, nobody)).body).toContain("You were given no account.");
    // Nor does the switch itself take an account of someone else's.
    const refused = await postForm(`${web.url}/account`, ann, { account: "secret_ledger", return: "/" });
    expect(refused.status).toBe(403);
  });

  it("switches to a found account with its button and returns to the section searched from", async () => {
    const found = await page(`${web.url}/account?q=${name(42)}&return=/changes`, ann);
    expect(found.body).toContain('<input type="hidden" name="return" value="/changes">');
    const switched = await postForm(`${web.url}/account`, ann, { account: name(42), return: "/changes" });
    expect(switched.status).toBe(303);
    expect(switched.headers.get("location")).toBe("/changes");
    const inbox = await page(`${web.url}/`, ann);
    expect(inbox.body).toContain("Forty Two Kft");
    expect(inbox.body).toContain(`Account ${name(42)}`);
    const again = await page(`${web.url}/account?q=${name(42)}`, ann);
    expect(again.body).toContain(
      'aria-current="true">client_0042</button> <span class="muted">(shown now)</span>',
    );
  });

  it("speaks Hungarian to a Hungarian user", async () => {
    const header = await page(`${web.url}/`, eva);
    expect(header.body).toContain('aria-label="Váltás másik fiókra"');
    const { body } = await page(`${web.url}/account?q=client_05`, eva);
    expect(body).toContain("600 fiókja közül 100 illik erre: „client_05”.");
    expect(body).toContain(`Az első ${ACCOUNT_RESULTS} látható`);
    expect((await page(`${web.url}/account?q=secret`, eva)).body).toContain(
      "600 fiókja közül egy sem illik erre: „secret”.",
    );
  });
});

describe("searchAccounts", () => {
  it("reads only the choices it is given, bounded", () => {
    const found = searchAccounts(["beta", "alpha", "alphabet", "gamma_alpha"], " ALPHA ", 2);
    expect(found).toEqual({ query: "alpha", shown: ["alpha", "alphabet"], matching: 3, given: 4 });
    expect(searchAccounts([], "x")).toEqual({ query: "x", shown: [], matching: 0, given: 0 });
    expect(searchAccounts(["b", "a"], undefined).shown).toEqual(["a", "b"]);
  });
});
