/**
 * Rules by the headings the registry is known to send (issue 49, point 5), over real HTTP and the
 * built CLI: the Hungarian form offers "Működési állapot" as a checkbox (value `status`) before
 * any change has named it; a heading's name typed in either language is stored as its key; a text
 * that is neither a name nor a key is refused in the reader's language, even with "a heading key
 * the registry may add later" ticked; a key the registry is not known to send needs that tick and
 * is stated honestly. What is stored is a key, always.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

let t: TestDatabase;
let web: TestConsole;
let magda: SignedIn;
let alice: SignedIn;

const rule = { channel: "notify", target: "regwatch_rules" };
const headingsOf = async (name: string) =>
  (
    await t.db.sql<{ headings: string[] }[]>`select headings from regwatch.alert_rules where name = ${name}`
  )[0]?.headings;

beforeAll(async () => {
  t = await createTestDatabase();
  web = await startTestConsole(t.db);
  await createUser(t.db, "magda", "admin");
  await createUser(t.db, "alice", "admin");
  await t.db.sql`update regwatch.console_users set locale = 'hu' where name = 'magda'`;
  await t.db.sql`update regwatch.console_users set locale = 'en' where name = 'alice'`;
  magda = await signIn(web.url, "magda");
  alice = await signIn(web.url, "alice");
});
afterAll(async () => {
  await web?.close();
  await t?.drop();
});

describe("the rule form in Hungarian", () => {
  it("offers every heading the registry sends as a checkbox in Hungarian, status among them", async () => {
    const html = await (await getPage(`${web.url}/rules`, magda)).text();
    expect(html).toMatch(
      /<input type="checkbox" name="headings" value="status"> <span title="status">Működési állapot<\/span>/,
    );
    for (const [key, word] of [
      ["bank_accounts", "Bankszámlaszámok"],
      ["long_name", "Név"],
      ["address", "Székhely"],
    ]) {
      expect(html).toContain(`value="${key}"> <span title="${key}">${word}</span>`);
    }
    expect(html).toContain("a nyilvántartás által később bevezethető rovatkulcs");
  });

  it("stores a ticked heading and typed names in either language as keys, no tick needed", async () => {
    const answer = await postForm(`${web.url}/rules`, magda, {
      ...rule,
      name: "állapot",
      headings: "status",
      other_headings: "bankszámlaszámok,  Registered seat , main_activities",
    });
    expect(answer.status).toBe(303);
    expect(await headingsOf("állapot")).toEqual(["status", "bank_accounts", "address", "main_activities"]);
    const page = await (await getPage(`${web.url}${answer.headers.get("location")}`, magda)).text();
    expect(page).toContain(
      "Egyetlen rögzített változás sem említette még ezt: Székhely (address), Bankszámlaszámok (bank_accounts), Főtevékenység (main_activities), Működési állapot (status); a szabály akkor jelez, amikor a cégnyilvántartás jelenti.",
    );
    expect(page).not.toContain("Nem tudunk róla");
    const typed = await postForm(`${web.url}/rules`, magda, {
      ...rule,
      name: "typed",
      other_headings: "Működési állapot",
    });
    expect(typed.status).toBe(303);
    expect(await headingsOf("typed")).toEqual(["status"]);
  });

  it("refuses a text that is no heading's name nor a key, in Hungarian, tick or not, and stores nothing", async () => {
    for (const tick of [{}, { new_heading: "on" }] as Record<string, string>[]) {
      const answer = await postForm(`${web.url}/rules`, magda, {
        ...rule,
        name: "rossz",
        other_headings: "Működési állapota",
        ...tick,
      });
      expect(answer.status).toBe(400);
      const html = await answer.text();
      expect(html).toContain("„Működési állapota”: nem rovatnév és nem is rovatkulcs");
      expect(html).toContain("Működési állapot (status)");
      expect(html).not.toContain("no stored change");
    }
    expect(await headingsOf("rossz")).toBeUndefined();
  });

  it("takes a key the registry may add later only when ticked, and says it may never fire", async () => {
    const refused = await postForm(`${web.url}/rules`, magda, {
      ...rule,
      name: "új",
      other_headings: "founded_at",
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(
      "founded_at: egyetlen rögzített változás sem említette ezt a rovatot, és nem tudunk róla, hogy a cégnyilvántartás küldené",
    );
    const taken = await postForm(`${web.url}/rules`, magda, {
      ...rule,
      name: "új",
      other_headings: "founded_at",
      new_heading: "on",
    });
    expect(taken.status).toBe(303);
    expect(await headingsOf("új")).toEqual(["founded_at"]);
    const page = await (await getPage(`${web.url}${taken.headers.get("location")}`, magda)).text();
    expect(page).toContain(
      "Nem tudunk róla, hogy a cégnyilvántartás küldene ilyen rovatot: founded_at; a szabály csak akkor jelez, ha a nyilvántartás valaha küld ilyen kulcsot.",
    );
    expect(page).not.toContain("amikor a cégnyilvántartás jelenti");
  });
});

describe("the rule form in English", () => {
  it("maps a Hungarian name typed in an English session and refuses an unknown one in English", async () => {
    const answer = await postForm(`${web.url}/rules`, alice, {
      ...rule,
      name: "en",
      other_headings: "Székhely",
    });
    expect(answer.status).toBe(303);
    expect(await headingsOf("en")).toEqual(["address"]);
    const bad = await postForm(`${web.url}/rules`, alice, {
      ...rule,
      name: "en2",
      other_headings: "Operating status",
      new_heading: "on",
    });
    expect(bad.status).toBe(400);
    const html = await bad.text();
    expect(html).toContain("“Operating status”: neither the name of a heading nor a heading key");
    expect(html).toContain("Status (status)");
  });
});

describe("regwatch alerts rule add", () => {
  it("stores a heading's name as its key and refuses a text that is not a key, --new-heading or not", async () => {
    const cli = (...args: string[]) =>
      runCli(["alerts", "rule", "add", ...args, "--channel", "notify", "--target", "x"], {
        DATABASE_URL: t.url,
      });
    const named = await cli("cli-status", "--heading", "Működési állapot");
    expect(named.code).toBe(0);
    expect(await headingsOf("cli-status")).toEqual(["status"]);
    expect(named.stderr).toContain("note: no stored change has named status yet");
    const bad = await cli("cli-bad", "--heading", "Operating status", "--new-heading");
    expect(bad.code).toBe(64);
    expect(bad.stderr).toContain('--heading "Operating status": neither a heading\'s name nor a heading key');
    const later = await cli("cli-later", "--heading", "founded_at", "--new-heading");
    expect(later.code).toBe(0);
    expect(later.stderr).toContain("note: the registry is not known to send founded_at");
    expect(await headingsOf("cli-bad")).toBeUndefined();
  });
});
