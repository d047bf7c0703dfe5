/**
 * User names with accented letters and the add-user form's language (issue 49, point 12):
 * `regwatch users add kovács.éva` is accepted and signs in whether the browser sends "é" as one
 * character or as "e" and a combining accent (names are kept NFC); a look-alike from another
 * script is refused naming the rule. The console's add-user form accepts the same names and sets
 * the new user's language, which their pages then speak. The built CLI and a console over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, runCliWithInput } from "../helpers/cli.ts";
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

let t: TestDatabase;
let web: TestConsole;
let ada: SignedIn;

beforeAll(async () => {
  t = await createTestDatabase();
  web = await startTestConsole(t.db);
  await createUser(t.db, "ada", "admin");
  ada = await signIn(web.url, "ada");
});
afterAll(async () => {
  await web?.close();
  await t?.drop();
});

const addUser = (name: string) =>
  runCliWithInput(
    ["users", "add", name, "--role", "reader", "--password-stdin"],
    { DATABASE_URL: t.url },
    `${TEST_PASSWORD}\n`,
  );

describe("regwatch users add", () => {
  it("accepts accented letters, stored as NFC, and signs in however the é was typed", async () => {
    expect(BIN).toContain("bin/regwatch.js");
    const decomposed = "kova\u0301cs.e\u0301va";
    const added = await addUser(decomposed);
    expect(added.stderr).toBe("");
    expect(added.code).toBe(0);
    const [row] = await t.db.sql<{ name: string }[]>`
      select name from regwatch.console_users where name like 'kov%'`;
    expect(row!.name).toBe("kovács.éva");
    expect(row!.name.length).toBe(10);
    await signIn(web.url, "kovács.éva");
    await signIn(web.url, decomposed);
  });

  it("refuses a look-alike letter of another script, saying what a name may hold", async () => {
    const cyrillic = await addUser("\u0430da");
    expect(cyrillic.code).toBe(64);
    expect(cyrillic.stderr).toContain(
      'must be 1 to 64 letters (accented ones too, as in kovács.éva), digits, ".", "_", "@" or "-"',
    );
  });
});

describe("the add-user form", () => {
  it("offers a language, adds an accented name with it, and that user's pages speak it", async () => {
    const form = await (await getPage(`${web.url}/users`, ada)).text();
    const add = form.slice(form.indexOf('action="/users/add"'));
    expect(add).toMatch(/<select name="locale">[\s\S]*value="hu"[\s\S]*value="en"/);
    const answer = await postForm(`${web.url}/users/add`, ada, {
      name: "szabó.ödön",
      role: "reader",
      locale: "hu",
    });
    expect(answer.status).toBe(200);
    const html = await answer.text();
    const password = /<code class="new-password">([^<]+)<\/code>/.exec(html)![1]!;
    const [row] = await t.db.sql<{ locale: string | null }[]>`
      select locale from regwatch.console_users where name = 'szabó.ödön'`;
    expect(row!.locale).toBe("hu");
    const odon = await signIn(web.url, "szabó.ödön", password);
    const inbox = await (await getPage(`${web.url}/`, odon)).text();
    expect(inbox).toContain('lang="hu"');

    const bad = await postForm(`${web.url}/users/add`, ada, { name: "x", role: "reader", locale: "de" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("is not a language of the console");
  });
});
