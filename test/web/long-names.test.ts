/**
 * Long names and long addresses: a rule or list name as long as allowed (200 characters, each
 * percent-encoded to 6) is reachable; a longer address is refused with the same security headers
 * as every other answer, whether the router refuses it (414), the URL is malformed (400) or Node's
 * parser refuses it before Fastify (431); and a rule name too long is refused when it is created.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertAlertRule } from "../../src/alerts/sql/rules.ts";
import { REFUSAL_HEADERS } from "../../src/web/security-headers.ts";
import { runCli } from "../helpers/cli.ts";
import { createUser, type SignedIn, signIn, startTestConsole, type TestConsole } from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

const LONGEST = "ő".repeat(200);

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

const get = (path: string) =>
  fetch(`${web.url}${path}`, { headers: { cookie: ada.cookie }, redirect: "manual" });

function expectSecurityHeaders(answer: Response, what: string) {
  const csp = answer.headers.get("content-security-policy") ?? "";
  expect(csp, what).toContain("script-src 'self'");
  expect(csp, what).toContain("frame-ancestors 'none'");
  expect(answer.headers.get("x-content-type-options"), what).toBe("nosniff");
  expect(answer.headers.get("referrer-policy"), what).toBe("same-origin");
  expect(answer.headers.get("x-frame-options"), what).toBe("DENY");
}

describe("long names and addresses", () => {
  it("refusals before the routes carry exactly the headers helmet gives a page", async () => {
    const page = await fetch(`${web.url}/healthz`);
    for (const [name, value] of Object.entries(REFUSAL_HEADERS))
      expect(page.headers.get(name), name).toBe(value);
  });

  it("a rule and a list named with the longest name are reachable", async () => {
    await insertAlertRule(t.db.sql, {
      name: LONGEST,
      channel: "notify",
      target: "ops",
      lists: [],
      headings: [],
      digest: false,
    });
    const rule = await get(`/rules/${encodeURIComponent(LONGEST)}`);
    expect(rule.status).toBe(200);
    expect(await rule.text()).toContain(LONGEST);
    expectSecurityHeaders(rule, "rule page");
    // No such list: the list page's own answer, not the router's.
    const list = await get(`/lists/${encodeURIComponent(LONGEST)}`);
    expect(list.status).toBe(404);
    expect(await list.text()).toContain(LONGEST);
    expectSecurityHeaders(list, "list page");
  });

  it("an address too long or malformed is refused with the security headers", async () => {
    const answers: [string, Response, number][] = [
      ["rule 414", await get(`/rules/${"x".repeat(5000)}`), 414],
      ["list 414", await get(`/lists/${"x".repeat(5000)}`), 414],
      ["bad escape 400", await get("/rules/%E0%A4%A"), 400],
      ["beyond Node's header size 431", await get(`/rules/${"x".repeat(20_000)}`), 431],
    ];
    for (const [what, answer, status] of answers) {
      expect(answer.status, what).toBe(status);
      expectSecurityHeaders(answer, what);
      expect(await answer.text(), what).not.toMatch(/x{100}/);
    }
  });

  it("a rule name longer than 200 characters is refused when the rule is created", async () => {
    const cli = await runCli(
      ["alerts", "rule", "add", "r".repeat(201), "--channel", "notify", "--target", "ops"],
      {
        DATABASE_URL: t.url,
      },
    );
    expect(cli.code).toBe(64);
    expect(cli.stderr).toContain("NAME is longer than 200 characters");
    expect(await t.db.sql`select 1 from regwatch.alert_rules where length(name) > 200`).toHaveLength(0);
  });
});
