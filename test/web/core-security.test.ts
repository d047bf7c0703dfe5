/**
 * What every answer of the console carries, whatever the page and status: a Content-Security-
 * Policy without inline script and with frame-ancestors 'none', nosniff, a Referrer-Policy; and
 * the role and rate limits: 403 beyond the role, 429 beyond five failed sign-ins a minute.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/connect.ts";
import { createLogger } from "../../src/logger.ts";
import {
  createUser,
  hiddenCsrf,
  postForm,
  signIn,
  startTestConsole,
  type TestConsole,
} from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

let t: TestDatabase;
let web: TestConsole;

beforeAll(async () => {
  t = await createTestDatabase();
  web = await startTestConsole(t.db, { env: { REGWATCH_WEB_SECURE_COOKIES: "true" } });
  await createUser(t.db, "rita", "reader");
  await createUser(t.db, "zoe", "reviewer");
});
afterAll(async () => {
  await web?.close();
  await t?.drop();
});

function expectSecurityHeaders(answer: Response, what: string) {
  const csp = answer.headers.get("content-security-policy") ?? "";
  expect(csp, what).toContain("script-src 'self'");
  expect(csp, what).not.toContain("unsafe-inline");
  expect(csp, what).toContain("frame-ancestors 'none'");
  expect(answer.headers.get("x-content-type-options"), what).toBe("nosniff");
  expect(answer.headers.get("referrer-policy"), what).toBe("same-origin");
  expect(answer.headers.get("x-frame-options"), what).toBe("DENY");
}

describe("security headers", () => {
  it("are on every answer: pages, redirects, errors, static files, /healthz", async () => {
    const session = await signIn(web.url, "rita");
    const answers: [string, Response][] = [
      ["GET /login", await fetch(`${web.url}/login`)],
      ["GET / without session (303)", await fetch(`${web.url}/`, { redirect: "manual" })],
      ["GET / signed in", await fetch(`${web.url}/`, { headers: { cookie: session.cookie } })],
      ["404", await fetch(`${web.url}/nowhere`, { headers: { cookie: session.cookie } })],
      ["403 CSRF", await postForm(`${web.url}/alerts/bulk`, session, { action: "ack" }, null)],
      ["static", await fetch(`${web.url}/static/console.js`)],
      ["healthz", await fetch(`${web.url}/healthz`)],
    ];
    for (const [what, answer] of answers) expectSecurityHeaders(answer, what);
    // Signed-in pages are never cached.
    expect(answers[2]![1].headers.get("cache-control")).toBe("no-store");
  });

  it("pages load no inline script: every script is a file under /static/", async () => {
    const session = await signIn(web.url, "rita");
    for (const path of ["/", "/login"]) {
      const html = await (await fetch(`${web.url}${path}`, { headers: { cookie: session.cookie } })).text();
      for (const tag of html.match(/<script[^>]*>[\s\S]*?<\/script>/g) ?? []) {
        expect(tag).toMatch(/^<script src="\/static\/[a-z-]+\.js"[^>]*><\/script>$/);
      }
    }
  });

  it("marks cookies Secure when REGWATCH_WEB_SECURE_COOKIES is set", async () => {
    const form = await fetch(`${web.url}/login`);
    const loginCookie = form.headers.getSetCookie()[0]!;
    expect(loginCookie).toMatch(/; Secure/i);
    const answer = await fetch(`${web.url}/login`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: loginCookie.split(";")[0]! },
      body: new URLSearchParams({
        username: "rita",
        password: "correct horse battery",
        _csrf: hiddenCsrf(await form.text()),
      }),
    });
    expect(answer.status).toBe(303);
    const session = answer.headers.getSetCookie().find((c) => c.startsWith("regwatch_session="))!;
    expect(session).toMatch(/; Secure/i);
    expect(session).toMatch(/; HttpOnly/i);
  });
});

describe("roles", () => {
  it("opens /users to an admin only: a reader and a reviewer get 403", async () => {
    await createUser(t.db, "ada", "admin");
    const admin = await signIn(web.url, "ada");
    const page = await fetch(`${web.url}/users`, { headers: { cookie: admin.cookie } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toMatch(
      /<tr data-user="zoe">\s*<td>zoe<\/td>[\s\S]*?<option value="reviewer" selected>reviewer<\/option>/,
    );
    expect(html).toContain('href="/users"');
    for (const name of ["rita", "zoe"]) {
      const session = await signIn(web.url, name);
      const refused = await fetch(`${web.url}/users`, { headers: { cookie: session.cookie } });
      expect(refused.status, name).toBe(403);
      expect(await refused.text()).toContain("This needs the admin role");
      const home = await (await fetch(`${web.url}/`, { headers: { cookie: session.cookie } })).text();
      expect(home).not.toContain('href="/users"');
    }
  });
});

describe("rate limit of failed sign-ins", () => {
  it("answers 429 after five failures for one user from one address within a minute, even with the right password", async () => {
    const attempt = async (password: string) => {
      const form = await fetch(`${web.url}/login`);
      return fetch(`${web.url}/login`, {
        method: "POST",
        redirect: "manual",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          cookie: form.headers.getSetCookie()[0]!.split(";")[0]!,
        },
        body: new URLSearchParams({ username: "zoe", password, _csrf: hiddenCsrf(await form.text()) }),
      });
    };
    for (let i = 0; i < 5; i++) expect((await attempt("wrong password here")).status).toBe(401);
    const limited = await attempt("wrong password here");
    expect(limited.status).toBe(429);
    // Seconds until the oldest of the five leaves the minute, on the database's clock.
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(30);
    expect(Number(limited.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    expect((await attempt("correct horse battery")).status).toBe(429);
    // Another user from the same address is not limited.
    await signIn(web.url, "rita");
    // A minute later on the database's clock (the console's own clock is not asked), the right
    // password works again: the attempts are made a minute older.
    await t.db.sql`update ${t.db.sql.t.console_login_failures} set at = at - interval '61 seconds'`;
    expect((await attempt("correct horse battery")).status).toBe(303);
  });
});

describe("behind a proxy", () => {
  const attemptFrom = async (
    url: string,
    name: string,
    password: string,
    headers: Record<string, string>,
  ) => {
    const form = await fetch(`${url}/login`);
    return fetch(`${url}/login`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        cookie: form.headers.getSetCookie()[0]!.split(";")[0]!,
        ...headers,
      },
      body: new URLSearchParams({ username: name, password, _csrf: hiddenCsrf(await form.text()) }),
    });
  };

  it("ignores X-Forwarded-For unless REGWATCH_WEB_TRUST_PROXY is set: a new address per attempt still meets the limit", async () => {
    await createUser(t.db, "ivan", "reader");
    const statuses: number[] = [];
    for (let i = 1; i <= 6; i++) {
      statuses.push(
        (await attemptFrom(web.url, "ivan", "wrong password here", { "x-forwarded-for": `198.51.100.${i}` }))
          .status,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });
});

describe("failures", () => {
  it("answers 500 with a page that names no detail when the database goes away, and logs why", async () => {
    const db = await openDatabase({ databaseUrl: t.url, dataDir: "" });
    const logged: string[] = [];
    const own = await startTestConsole(db, {
      log: createLogger({ level: "error", stream: { write: (line: string) => logged.push(line) } }),
    });
    try {
      const session = await signIn(own.url, "rita");
      await db.close();
      const answer = await fetch(`${own.url}/`, { headers: { cookie: session.cookie } });
      expect(answer.status).toBe(500);
      const html = await answer.text();
      expect(html).toContain("The page failed; the console&#39;s log says why.");
      // SQL or the driver's words, never the page's own <select> (the header's language switch).
      expect(html).not.toMatch(/regwatch\.|(?<!<)select |postgres|CONNECTION/i);
      expectSecurityHeaders(answer, "500");
      expect(logged.join("")).toContain("console page failed");
    } finally {
      await own.close();
    }
  });
});
