/**
 * `/alerts/{id}` over real HTTP: before/after values, the business's other changes, messages and
 * history; ack, resolve, snooze and comment as the signed-in user (a `by` field ignored), the
 * reader refused with 403 and the CSRF token required, nothing changed when refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
import { addNotifyRule, nameBusiness, raiseAlerts } from "./fixtures.ts";

let t: TestDatabase;
let web: TestConsole;
let reader: SignedIn;
let reviewer: SignedIn;
let ids: number[];

const history = (id: number) =>
  t.db.sql<{ action: string; by: string; note: string | null; until: string | null }[]>`
    select action, by, note, to_char(snoozed_until, 'YYYY-MM-DD') as until
    from regwatch.alert_events where alert_id = ${id} order by id`;
const statusOf = async (id: number) =>
  (await t.db.sql<{ status: string }[]>`select status from regwatch.alerts where id = ${id}`)[0]!.status;

beforeAll(async () => {
  t = await createTestDatabase();
  web = await startTestConsole(t.db, { now: new Date("2026-11-25T09:00:00Z") });
  await createUser(t.db, "rita", "reader");
  await createUser(t.db, "viktor", "reviewer");
  await addNotifyRule(t.db.sql);
  await nameBusiness(t.db.sql, "11111111", "Alpha Kft.");
  ids = await raiseAlerts(t.db.sql, [
    {
      taxId: "11111111",
      date: "2026-11-10",
      headings: ["seat"],
      lists: ["suppliers"],
      values: { seat: ["1011 Budapest, Fő utca 1.", "6720 Szeged, Kárász utca 2."] },
    },
    {
      taxId: "11111111",
      date: "2026-11-20",
      headings: ["bank_accounts", "status"],
      lists: ["suppliers"],
      values: {
        bank_accounts: [[{ bank_account: "11700024-00000001" }], [{ bank_account: "10402142-49555052" }]],
        status: ["1", "0"],
      },
    },
  ]);
  reader = await signIn(web.url, "rita");
  reviewer = await signIn(web.url, "viktor");
});
afterAll(async () => {
  await web?.close();
  await t?.drop();
});

describe("an alert's page", () => {
  it("shows the change before and after, the business's other changes, messages and the history", async () => {
    const answer = await getPage(`${web.url}/alerts/${ids[1]}`, reader);
    expect(answer.status).toBe(200);
    const html = await answer.text();
    expect(html).toContain("Alpha Kft.");
    expect(html).toMatch(
      /11700024-00000001<\/span><span class="arrow">→<\/span><span class="new">10402142-49555052/,
    );
    expect(html).toMatch(/operating<\/span><span class="arrow">→<\/span><span class="new">ceased/);
    expect(html).toContain("Other recent changes of this business");
    expect(html).toContain("6720 Szeged, Kárász utca 2.");
    expect(html).toMatch(
      /<td>msg_[0-9a-f]{32}<\/td><td title="alert">one alert<\/td><td class="delivery-pending" title="pending">waiting to be sent<\/td>/,
    );
    expect(html).toContain("<td>raised</td>");
  });

  it("shows a reader no action forms and answers their POST with 403, changing nothing", async () => {
    const html = await (await getPage(`${web.url}/alerts/${ids[0]}`, reader)).text();
    expect(html).not.toContain(`action="/alerts/${ids[0]}/ack"`);
    for (const action of ["ack", "resolve", "comment"]) {
      const answer = await postForm(`${web.url}/alerts/${ids[0]}/${action}`, reader, {
        note: "reader tries",
      });
      expect(answer.status).toBe(403);
    }
    expect(await statusOf(ids[0]!)).toBe("open");
    expect(await history(ids[0]!)).toEqual([]);
  });

  it("refuses an action without or with another session's _csrf with 403, changing nothing", async () => {
    expect((await postForm(`${web.url}/alerts/${ids[0]}/ack`, reviewer, { note: "x" }, null)).status).toBe(
      403,
    );
    expect(
      (await postForm(`${web.url}/alerts/${ids[0]}/ack`, reviewer, { note: "x" }, reader.csrf)).status,
    ).toBe(403);
    expect(await statusOf(ids[0]!)).toBe("open");
    expect(await history(ids[0]!)).toEqual([]);
  });

  it("acknowledges with a note as the signed-in user, ignoring a by field, and shows it in the history", async () => {
    const answer = await postForm(`${web.url}/alerts/${ids[0]}/ack`, reviewer, {
      note: "checked with the supplier by phone",
      by: "mallory",
    });
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe(`/alerts/${ids[0]}`);
    expect(await statusOf(ids[0]!)).toBe("acknowledged");
    expect(await history(ids[0]!)).toEqual([
      { action: "acknowledged", by: "viktor", note: "checked with the supplier by phone", until: null },
    ]);
    const html = await (await getPage(`${web.url}/alerts/${ids[0]}`, reader)).text();
    expect(html).toMatch(
      /<td>viktor<\/td><td title="acknowledged">acknowledged<\/td><td>checked with the supplier by phone<\/td>/,
    );
    expect(html).not.toContain("mallory");
  });

  it("comments without changing the status; a comment needs a note", async () => {
    expect((await postForm(`${web.url}/alerts/${ids[0]}/comment`, reviewer, { note: "  " })).status).toBe(
      400,
    );
    const answer = await postForm(`${web.url}/alerts/${ids[0]}/comment`, reviewer, {
      note: "<b>bank letter</b> filed",
    });
    expect(answer.status).toBe(303);
    expect(await statusOf(ids[0]!)).toBe("acknowledged");
    expect((await history(ids[0]!)).at(-1)).toEqual({
      action: "commented",
      by: "viktor",
      note: "<b>bank letter</b> filed",
      until: null,
    });
    const html = await (await getPage(`${web.url}/alerts/${ids[0]}`, reader)).text();
    expect(html).toContain("&lt;b&gt;bank letter&lt;/b&gt; filed");
  });

  it("snoozes until a day not before the console's today, and resolves", async () => {
    const past = await postForm(`${web.url}/alerts/${ids[1]}/snooze`, reviewer, { until: "2026-11-24" });
    expect(past.status).toBe(400);
    expect(await past.text()).toContain("until must be today (2026-11-25) or later");
    const bad = await postForm(`${web.url}/alerts/${ids[1]}/snooze`, reviewer, { until: "soon" });
    expect(bad.status).toBe(400);
    expect(await statusOf(ids[1]!)).toBe("open");
    const snoozed = await postForm(`${web.url}/alerts/${ids[1]}/snooze`, reviewer, {
      until: "2026-11-30",
      note: "back monday",
    });
    expect(snoozed.status).toBe(303);
    expect(await statusOf(ids[1]!)).toBe("snoozed");
    expect((await history(ids[1]!)).at(-1)).toMatchObject({ action: "snoozed", until: "2026-11-30" });
    const resolved = await postForm(`${web.url}/alerts/${ids[1]}/resolve`, reviewer, {});
    expect(resolved.status).toBe(303);
    expect(await statusOf(ids[1]!)).toBe("resolved");
  });

  it("answers 404 for an alert that does not exist or an odd id, and 400 for an unknown action", async () => {
    expect((await getPage(`${web.url}/alerts/999999`, reader)).status).toBe(404);
    expect((await getPage(`${web.url}/alerts/abc`, reader)).status).toBe(404);
    expect((await postForm(`${web.url}/alerts/999999/ack`, reviewer, {})).status).toBe(404);
    expect((await postForm(`${web.url}/alerts/${ids[0]}/delete`, reviewer, {})).status).toBe(400);
  });
});
