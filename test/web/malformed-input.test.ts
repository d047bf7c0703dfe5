/**
 * Malformed input across the console's routes, sent over real HTTP as a signed-in reviewer with a
 * valid CSRF token (so only the input itself can be refused): NUL and other control characters in
 * form fields, query values and path segments, ids out of shape, values too long, a body of the
 * wrong type. Every answer is 400 or 404 (a page that says what was wrong), never a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createUser,
  hiddenCsrf,
  type SignedIn,
  signIn,
  startTestConsole,
  type TestConsole,
} from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { addNotifyRule, raiseAlerts } from "./fixtures.ts";

let t: TestDatabase;
let web: TestConsole;
let session: SignedIn;
let alertId: number;

beforeAll(async () => {
  t = await createTestDatabase();
  web = await startTestConsole(t.db);
  await createUser(t.db, "zoe", "reviewer");
  session = await signIn(web.url, "zoe");
  await addNotifyRule(t.db.sql);
  const ids = await raiseAlerts(t.db.sql, [
    { taxId: "11111111", date: "2026-11-20", headings: ["name"], lists: ["suppliers"] },
  ]);
  alertId = ids[0]!;
});
afterAll(async () => {
  await web?.close();
  await t?.drop();
});

function post(path: string, fields: Record<string, string>, cookie = session.cookie): Promise<Response> {
  return fetch(`${web.url}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie },
    body: new URLSearchParams({ _csrf: session.csrf, ...fields }),
  });
}

function get(path: string): Promise<Response> {
  return fetch(`${web.url}${path}`, { redirect: "manual", headers: { cookie: session.cookie } });
}

describe("malformed input", () => {
  it("refuses a NUL in the user name at sign-in with 400, before any check", async () => {
    const formPage = await fetch(`${web.url}/login`);
    const cookie = formPage.headers.getSetCookie()[0]!.split(";")[0]!;
    const csrf = hiddenCsrf(await formPage.text());
    for (const [username, password] of [
      ["zo\u0000e", "whatever it is"],
      ["zoe\r\nX-Injected: 1", "whatever it is"],
      ["zoe", "pass\u0000word"],
      ["z".repeat(5000), "whatever it is"],
    ] as const) {
      const answer = await fetch(`${web.url}/login`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie },
        body: new URLSearchParams({ username, password, _csrf: csrf }),
      });
      expect(answer.status, JSON.stringify(username)).toBe(400);
      expect(await answer.text()).toContain("Nothing was done");
    }
    // None of them was counted against the user's sign-in limit.
    const [row] = await t.db.sql<
      { n: number }[]
    >`select count(*)::int as n from regwatch.console_login_failures`;
    expect(row!.n).toBe(0);
  });

  it("answers 400 or 404, never 500, to control characters and odd shapes across the pages", async () => {
    const answers: [string, Response][] = [
      ["GET / list NUL", await get("/?list=%00")],
      ["GET / rule NUL", await get("/?rule=a%00b")],
      ["GET / unknown name NUL", await get("/?utm=%00")],
      ["GET /runs kind NUL", await get("/runs?kind=%00")],
      ["GET /runs kind CRLF", await get("/runs?kind=a%0d%0ab")],
      ["GET /changes list NUL", await get("/changes?list=%00")],
      ["GET /changes heading NUL", await get("/changes.csv?heading=%00")],
      ["GET /coverage end NUL", await get("/coverage?end=%00")],
      ["GET /businesses tax_id CRLF", await get("/businesses?tax_id=12345676%0d%0a")],
      ["GET /businesses/ CRLF", await get("/businesses/12345676%0d%0aSet-Cookie:%20x=1")],
      ["GET /businesses/ NUL", await get("/businesses/%00")],
      ["GET /businesses/ as_of NUL", await get("/businesses/12345676?as_of=%00")],
      ["GET /alerts/ CRLF", await get("/alerts/1%0d%0a")],
      ["GET /alerts/ huge", await get(`/alerts/${"9".repeat(40)}`)],
      ["GET /alerts/ NUL", await get("/alerts/%00")],
      ["GET /payments/ CRLF", await get("/payments/%0d%0a.csv")],
      ["GET /payments/ NUL", await get("/payments/%00")],
      ["GET /payments/ page NUL", await get("/payments?page=%00")],
      ["GET /nowhere CRLF", await get("/nowhere%0d%0aLocation:%20x")],
      ["POST /alerts/{id}/resolve note NUL", await post(`/alerts/${alertId}/resolve`, { note: "a\u0000b" })],
      [
        "POST /alerts/{id}/snooze until NUL",
        await post(`/alerts/${alertId}/snooze`, { until: "2026-12-01\u0000" }),
      ],
      ["POST /alerts/{id}/nonsense", await post(`/alerts/${alertId}/nonsense`, { note: "x" })],
      ["POST /alerts/x/ack", await post("/alerts/x%0a/ack", { note: "x" })],
      ["POST /alerts/bulk ids NUL", await post("/alerts/bulk", { action: "ack", ids: "1\u0000" })],
      [
        "POST /alerts/bulk note NUL",
        await post("/alerts/bulk", { action: "ack", ids: String(alertId), note: "\u0000" }),
      ],
      [
        "POST /alerts/bulk return CRLF",
        await post("/alerts/bulk", { action: "ack", ids: "1", return: "/\r\nX: y" }),
      ],
      [
        "POST /payments/verify note NUL",
        await post("/payments/verify", { account: "1", tax_id: "12345676", note: "\u0000" }),
      ],
      [
        "POST /payments/verify account NUL",
        await post("/payments/verify", { account: "\u0000", tax_id: "12345676" }),
      ],
      ["POST /logout csrf NUL", await post("/logout", { _csrf: "\u0000" })],
    ];
    const jsonBody = await fetch(`${web.url}/alerts/bulk`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/json", cookie: session.cookie },
      body: JSON.stringify(["not", "a", "form"]),
    });
    answers.push(["POST /alerts/bulk JSON array", jsonBody]);
    for (const [what, answer] of answers) {
      expect([400, 404], `${what} answered ${answer.status}`).toContain(answer.status);
      expect(answer.headers.get("content-type") ?? "", what).toMatch(/^text\/html/);
    }
    // Nothing was changed by any of them.
    const [alert] = await t.db.sql<
      { status: string }[]
    >`select status from regwatch.alerts where id = ${alertId}`;
    expect(alert!.status).toBe("open");
  });

  it("names the field that was refused", async () => {
    const answer = await get("/runs?kind=%00");
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain(
      "the query&#39;s &quot;kind&quot; holds a character that is not allowed",
    );
  });
});
