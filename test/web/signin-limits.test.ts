/**
 * The sign-in limits on the database's clock and across names and addresses (issue 48, point 9),
 * over real HTTP. Two consoles share one database, one of them with its clock two hours ahead:
 * the burst still gets five checks, and the right password works once the window has passed on
 * the database's clock. Addresses are varied through X-Forwarded-For from a trusted proxy: one
 * address trying many names, and many addresses trying one name, meet their limits without a
 * password check; the user from an address they signed in from before is spared.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../src/db/connect.ts";
import { createLogger } from "../../src/logger.ts";
import {
  createUser,
  hiddenCsrf,
  startTestConsole,
  TEST_PASSWORD,
  type TestConsole,
} from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

const WRONG = "not the password at all";

let t: TestDatabase;
let proxied: TestConsole;
/** The lines the proxied console logged: one "console sign-in failed" per password checked and wrong. */
const logged: string[] = [];

beforeAll(async () => {
  t = await createTestDatabase();
  proxied = await startTestConsole(t.db, {
    env: { REGWATCH_WEB_TRUST_PROXY: "127.0.0.1" },
    log: createLogger({ level: "info", stream: { write: (line: string) => logged.push(line) } }),
  });
  for (const name of ["clock", "target"]) await createUser(t.db, name, "reader");
});
afterAll(async () => {
  await proxied?.close();
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
  from?: string,
): Promise<{ status: number; retryAfter: string | null }> {
  const answer = await fetch(`${url}/login`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      cookie: form.cookie,
      ...(from ? { "x-forwarded-for": from } : {}),
    },
    body: new URLSearchParams({ username, password, _csrf: form.csrf }),
  });
  await answer.arrayBuffer();
  return { status: answer.status, retryAfter: answer.headers.get("retry-after") };
}

function tally(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
  return counts;
}

/** The database's clock moves on by `seconds` for the limits: every counted attempt grows older. */
async function ageAttempts(seconds: number): Promise<void> {
  await t.db.sql`update ${t.db.sql.t.console_login_failures}
    set at = at - make_interval(secs => ${seconds})`;
}

function passwordChecks(): number {
  return logged.filter((line) => line.includes("console sign-in failed")).length;
}

describe("the sign-in limit on the database's clock", () => {
  it("gives a burst five checks across two consoles when one's clock runs two hours ahead, and lets the right password in after the window", async () => {
    const ownDb: Database = await openDatabase({ databaseUrl: t.url, dataDir: "" });
    const near = await startTestConsole(t.db);
    const ahead = await startTestConsole(ownDb, { now: new Date(Date.now() + 2 * 3_600_000) });
    try {
      const [nearForm, aheadForm] = await Promise.all([loginForm(near.url), loginForm(ahead.url)]);
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          i % 2 === 0
            ? attempt(near.url, nearForm, "clock", WRONG)
            : attempt(ahead.url, aheadForm, "clock", WRONG),
        ),
      );
      expect(tally(answers.map((a) => a.status))).toEqual({ 401: 5, 429: 25 });
      expect((await attempt(ahead.url, aheadForm, "clock", TEST_PASSWORD)).status).toBe(429);
      expect((await attempt(near.url, nearForm, "clock", TEST_PASSWORD)).status).toBe(429);

      // A minute later on the database's clock, the right password works on either console.
      await ageAttempts(61);
      expect((await attempt(ahead.url, aheadForm, "clock", TEST_PASSWORD)).status).toBe(303);
      expect((await attempt(near.url, nearForm, "clock", TEST_PASSWORD)).status).toBe(303);
    } finally {
      await ahead.close();
      await near.close();
      await ownDb.close();
    }
  });
});

describe("the sign-in limits across names and addresses", () => {
  it("checks twenty of thirty names tried from one address and refuses the rest with 429 and Retry-After, no password checked", async () => {
    const form = await loginForm(proxied.url);
    const before = passwordChecks();
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => attempt(proxied.url, form, `guess${i}`, WRONG, "203.0.113.7")),
    );
    expect(tally(answers.map((a) => a.status))).toEqual({ 401: 20, 429: 10 });
    expect(passwordChecks() - before).toBe(20);
    for (const refused of answers.filter((a) => a.status === 429)) {
      expect(Number(refused.retryAfter)).toBeGreaterThan(60);
      expect(Number(refused.retryAfter)).toBeLessThanOrEqual(600);
    }
    // Another address is not held back by this one.
    expect((await attempt(proxied.url, form, "guess0", WRONG, "203.0.113.8")).status).toBe(401);
  });

  it("checks ten tries of one name from thirty addresses, spares the user at their usual address, and lets a new one in after five minutes", async () => {
    const form = await loginForm(proxied.url);
    // The user signed in from their usual address before.
    expect((await attempt(proxied.url, form, "target", TEST_PASSWORD, "192.0.2.10")).status).toBe(303);

    const before = passwordChecks();
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        attempt(proxied.url, form, "target", WRONG, `198.51.100.${i + 1}`),
      ),
    );
    expect(tally(answers.map((a) => a.status))).toEqual({ 401: 10, 429: 20 });
    expect(passwordChecks() - before).toBe(10);
    const refused = answers.find((a) => a.status === 429)!;
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(300);

    // The user at their usual address signs in at once; from a new address, after the short window.
    expect((await attempt(proxied.url, form, "target", TEST_PASSWORD, "192.0.2.10")).status).toBe(303);
    expect((await attempt(proxied.url, form, "target", TEST_PASSWORD, "192.0.2.99")).status).toBe(429);
    await ageAttempts(301);
    expect((await attempt(proxied.url, form, "target", TEST_PASSWORD, "192.0.2.99")).status).toBe(303);
  });
});
