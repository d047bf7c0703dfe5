/**
 * The sign-in limit under a burst: attempts sent all at once over real HTTP, against one console
 * and against two console processes sharing one database. Each attempt is counted before its
 * password is checked, so at most five of a burst are checked at all (401) and the rest answer
 * 429, a right password among them included.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../src/db/connect.ts";
import { BIN } from "../helpers/cli.ts";
import {
  createUser,
  hiddenCsrf,
  startTestConsole,
  startWebProcess,
  TEST_PASSWORD,
  type TestConsole,
} from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

const WRONG = "not the password at all";

let t: TestDatabase;
let web: TestConsole;

beforeAll(async () => {
  t = await createTestDatabase();
  web = await startTestConsole(t.db);
  for (const name of ["burst", "mixed", "fleet"]) await createUser(t.db, name, "reader");
});
afterAll(async () => {
  await web?.close();
  await t?.drop();
});

/** A sign-in form's cookie and token, good for any number of posts from one client. */
async function loginForm(url: string): Promise<{ cookie: string; csrf: string }> {
  const form = await fetch(`${url}/login`);
  return { cookie: form.headers.getSetCookie()[0]!.split(";")[0]!, csrf: hiddenCsrf(await form.text()) };
}

async function attempt(
  url: string,
  form: { cookie: string; csrf: string },
  username: string,
  password: string,
) {
  const answer = await fetch(`${url}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: form.cookie },
    body: new URLSearchParams({ username, password, _csrf: form.csrf }),
  });
  await answer.arrayBuffer();
  return answer.status;
}

function tally(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
  return counts;
}

describe("a burst of sign-ins", () => {
  it("answers five of thirty wrong passwords sent at once with 401 and the rest with 429", async () => {
    const form = await loginForm(web.url);
    const statuses = await Promise.all(
      Array.from({ length: 30 }, () => attempt(web.url, form, "burst", WRONG)),
    );
    expect(tally(statuses)).toEqual({ 401: 5, 429: 25 });
    // The limit holds after the burst: the right password is refused too.
    expect(await attempt(web.url, form, "burst", TEST_PASSWORD)).toBe(429);
  });

  it("checks no more than five of a burst that hides the right password among wrong ones", async () => {
    const form = await loginForm(web.url);
    const passwords = Array.from({ length: 30 }, (_, i) => (i === 17 ? TEST_PASSWORD : WRONG));
    const statuses = await Promise.all(passwords.map((p) => attempt(web.url, form, "mixed", p)));
    const counts = tally(statuses);
    // Whether the right one was among the five checked is up to the scheduler; five at most were.
    expect((counts[401] ?? 0) + (counts[303] ?? 0)).toBe(5);
    expect(counts[429]).toBe(25);
    expect(await attempt(web.url, form, "mixed", TEST_PASSWORD)).toBe(429);
  });

  it("holds across two console processes sharing one database", async () => {
    // An in-process console with a pool of its own, and `regwatch web` as a process of its own.
    const ownDb: Database = await openDatabase({ databaseUrl: t.url, dataDir: "" });
    const near = await startTestConsole(ownDb);
    const far = await startWebProcess(BIN, { DATABASE_URL: t.url });
    try {
      const [nearForm, farForm] = await Promise.all([loginForm(near.url), loginForm(far.url)]);
      const statuses = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          i % 2 === 0
            ? attempt(near.url, nearForm, "fleet", WRONG)
            : attempt(far.url, farForm, "fleet", WRONG),
        ),
      );
      expect(tally(statuses)).toEqual({ 401: 5, 429: 25 });
      expect(await attempt(far.url, farForm, "fleet", TEST_PASSWORD)).toBe(429);
      expect(await attempt(near.url, nearForm, "fleet", TEST_PASSWORD)).toBe(429);
    } finally {
      await far.stop();
      await near.close();
      await ownDb.close();
    }
  });
});
