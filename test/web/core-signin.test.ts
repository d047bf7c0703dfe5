/**
 * Sign-in over real HTTP against a real database: the form, 303 with a session cookie, 401,
 * 429 beyond five failures, 303 to /login without a session, sign-out, expiry on the console's
 * clock, and the cookie's flags.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createUser,
  getPage,
  hiddenCsrf,
  postForm,
  signIn,
  startTestConsole,
  type TestConsole,
} from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

let testDb: TestDatabase;
let web: TestConsole;
const start = new Date("2026-11-25T08:00:00Z");

beforeAll(async () => {
  testDb = await createTestDatabase();
  web = await startTestConsole(testDb.db, { now: start });
  await createUser(testDb.db, "olga", "reviewer");
});
afterAll(async () => {
  await web?.close();
  await testDb?.drop();
});

async function loginForm(): Promise<{ cookie: string; csrf: string }> {
  const form = await fetch(`${web.url}/login`);
  expect(form.status).toBe(200);
  const cookie = form.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  return { cookie, csrf: hiddenCsrf(await form.text()) };
}

function postLogin(
  form: { cookie: string; csrf: string | null },
  username: string,
  password: string,
  address?: string,
) {
  const body = new URLSearchParams({ username, password });
  if (form.csrf !== null) body.append("_csrf", form.csrf);
  return fetch(`${web.url}/login`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      cookie: form.cookie,
      ...(address ? { "x-test-address": address } : {}),
    },
    body,
  });
}

describe("sign-in", () => {
  it("answers the form with username, password and a hidden _csrf", async () => {
    const answer = await fetch(`${web.url}/login`);
    const html = await answer.text();
    expect(html).toMatch(/name="username"/);
    expect(html).toMatch(/name="password" type="password"/);
    expect(html).toMatch(/type="hidden" name="_csrf" value="[A-Za-z0-9_-]{43}"/);
  });

  it("answers 303 to / with an HttpOnly, SameSite=Lax session cookie expiring after 12 hours", async () => {
    const answer = await postLogin(await loginForm(), "olga", "correct horse battery");
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe("/");
    const cookie = answer.headers.getSetCookie().find((c) => c.startsWith("regwatch_session="))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i);
    const expires = new Date(/Expires=([^;]+)/i.exec(cookie)![1]!);
    expect(expires.getTime()).toBe(Math.floor((start.getTime() + 12 * 3_600_000) / 1000) * 1000);
  });

  it("re-renders the form with 401 for a wrong password or an unknown user", async () => {
    const wrong = await postLogin(await loginForm(), "olga", "not the password at all");
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain("Wrong user name or password.");
    const unknown = await postLogin(await loginForm(), "nobody", "not the password at all");
    expect(unknown.status).toBe(401);
  });

  it("refuses a sign-in without the form's _csrf with 403", async () => {
    const form = await loginForm();
    expect((await postLogin({ ...form, csrf: null }, "olga", "correct horse battery")).status).toBe(403);
    expect((await postLogin({ ...form, csrf: "x".repeat(43) }, "olga", "correct horse battery")).status).toBe(
      403,
    );
  });

  it("sends a page without a session to /login with 303, but not /healthz or /static/", async () => {
    for (const path of ["/", "/alerts/1", "/changes", "/no-such-page"]) {
      const answer = await fetch(`${web.url}${path}`, { redirect: "manual" });
      expect(answer.status, path).toBe(303);
      expect(answer.headers.get("location")).toBe("/login");
    }
    const forged = await fetch(`${web.url}/`, {
      redirect: "manual",
      headers: { cookie: "regwatch_session=forged" },
    });
    expect(forged.status).toBe(303);
    expect((await fetch(`${web.url}/healthz`)).status).toBe(200);
    const css = await fetch(`${web.url}/static/console.css`);
    expect(css.status).toBe(200);
    expect(css.headers.get("content-type")).toMatch(/text\/css/);
  });

  it("signs out with POST /logout: the same cookie no longer opens a page", async () => {
    const session = await signIn(web.url, "olga");
    expect((await getPage(`${web.url}/`, session)).status).toBe(200);
    const out = await postForm(`${web.url}/logout`, session, {});
    expect(out.status).toBe(303);
    expect(out.headers.get("location")).toBe("/login");
    expect((await getPage(`${web.url}/`, session)).status).toBe(303);
  });

  it("ends a session REGWATCH_WEB_SESSION_HOURS after sign-in, on the console's clock", async () => {
    const session = await signIn(web.url, "olga");
    web.setNow(new Date(start.getTime() + 11 * 3_600_000));
    expect((await getPage(`${web.url}/`, session)).status).toBe(200);
    web.setNow(new Date(start.getTime() + 12 * 3_600_000 + 1000));
    expect((await getPage(`${web.url}/`, session)).status).toBe(303);
    // The next sign-in clears the sessions that have ended.
    await signIn(web.url, "olga");
    const [left] = await testDb.db.sql<{ n: number }[]>`
      select count(*)::int as n from regwatch.console_sessions where expires_at <= ${web.deps.now()}`;
    expect(left!.n).toBe(0);
    web.setNow(start);
  });
});
