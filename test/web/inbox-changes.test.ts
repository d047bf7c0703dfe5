/**
 * The inbox for people over real HTTP (issue 34, point 4): a change matched by three rules is one
 * row listing the three; acting on the row acts on each of its alerts, every alert's history
 * recording it; severity (bank accounts, status to ceased or suspended, names) as a filter and a
 * label; count cards linking to their filters; assignment with its history and the "assigned to
 * me" filter; an empty inbox saying why.
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
import { addNotifyRule, raiseAlerts } from "./fixtures.ts";

let t: TestDatabase;
let web: TestConsole;
let viktor: SignedIn;
let ids: number[];

const rowsOf = (html: string) =>
  [...html.matchAll(/<tr class="change-row" data-change="(\d+)">/g)].map((m) => Number(m[1]));

beforeAll(async () => {
  t = await createTestDatabase();
  web = await startTestConsole(t.db);
  await createUser(t.db, "viktor", "reviewer");
  await createUser(t.db, "anna", "reviewer");
  viktor = await signIn(web.url, "viktor");
});
afterAll(async () => {
  await web?.close();
  await t?.drop();
});

describe("an empty inbox says why", () => {
  it("with no rule: says none exists and links to the rules page", async () => {
    const html = await (await getPage(`${web.url}/`, viktor)).text();
    expect(html).toContain("no alert rule exists yet");
    expect(html).toContain('href="/rules"');
  });

  it("with rules but nothing new: names when the last run finished", async () => {
    await addNotifyRule(t.db.sql, "one");
    await t.db.sql`
      insert into regwatch.runs (kind, trigger, status, started_at, finished_at)
      values ('sync', 'schedule', 'ok', '2026-11-24T06:00:00Z', '2026-11-24T06:05:00Z')`;
    const html = await (await getPage(`${web.url}/`, viktor)).text();
    expect(html).toContain("no change since the last run, which finished at 24 Nov 2026, 07:05 CET");
  });
});

describe("one row per change", () => {
  beforeAll(async () => {
    await addNotifyRule(t.db.sql, "two");
    await addNotifyRule(t.db.sql, "three");
    ids = await raiseAlerts(t.db.sql, [
      {
        taxId: "11111111",
        date: "2026-11-20",
        headings: ["bank_accounts"],
        lists: ["suppliers"],
        values: {
          bank_accounts: [[{ bank_account: "11700024-00000001" }], [{ bank_account: "10402142-49555052" }]],
        },
      },
      {
        taxId: "22222222",
        date: "2026-11-21",
        headings: ["status"],
        lists: ["suppliers"],
        values: { status: ["1", "0"] },
      },
      { taxId: "33333333", date: "2026-11-22", headings: ["address"], lists: ["suppliers"] },
    ]);
  });

  it("lists the three rules that matched a change in its one row", async () => {
    const alerts = await t.db.sql<{ changeId: number; n: number }[]>`
      select change_id::int as "changeId", count(*)::int as n from regwatch.alerts group by change_id order by 1`;
    expect(alerts.map((a) => a.n)).toEqual([3, 3, 3]);
    const html = await (await getPage(`${web.url}/`, viktor)).text();
    expect(rowsOf(html)).toEqual(alerts.map((a) => a.changeId).reverse());
    expect(html).toMatch(/<strong>3<\/strong> changes with open alerts/);
    const row = html.slice(html.indexOf(`data-change="${alerts[0]!.changeId}"`));
    expect(row.slice(0, row.indexOf("</tr>"))).toMatch(/>one<\/a>.*>three<\/a>.*>two<\/a>/s);
  });

  it("marks bank accounts and a status to ceased high, in words, and filters by severity", async () => {
    const html = await (await getPage(`${web.url}/`, viktor)).text();
    expect(html.match(/class="severity severity-high"[^>]*>High</g)).toHaveLength(2);
    expect(html.match(/class="severity severity-normal"[^>]*>Normal</g)).toHaveLength(1);
    expect(html).toMatch(/<a href="\/\?severity=high"[^>]*><strong>2<\/strong> of high severity<\/a>/);
    const high = await (await getPage(`${web.url}/?severity=high`, viktor)).text();
    expect(rowsOf(high)).toHaveLength(2);
    const normal = await (await getPage(`${web.url}/?severity=normal`, viktor)).text();
    expect(rowsOf(normal)).toHaveLength(1);
  });

  it("makes every count card a link to its filter", async () => {
    const html = await (await getPage(`${web.url}/`, viktor)).text();
    for (const href of ["/", "/?new=1", "/?severity=high", "/?heading=bank_accounts", "/?assigned=me"])
      expect(html).toContain(`href="${href}"`);
    const bank = await (await getPage(`${web.url}/?heading=bank_accounts`, viktor)).text();
    expect(rowsOf(bank)).toHaveLength(1);
  });

  it("acknowledges every alert of a row's change, each alert's history recording it, and confirms", async () => {
    const [change] = await t.db.sql<{ id: number }[]>`
      select change_id::int as id from regwatch.alerts where id = ${ids[2]!}`;
    const answer = await postForm(`${web.url}/alerts/bulk`, viktor, {
      changes: [String(change!.id)],
      status: "open",
      action: "ack",
      note: "known move",
      return: "/",
    });
    expect(answer.status).toBe(303);
    const location = answer.headers.get("location")!;
    expect(location).toBe("/?done=ack&alerts=3&changes=1");
    const events = await t.db.sql<{ by: string; action: string }[]>`
      select e.by, e.action from regwatch.alert_events e join regwatch.alerts a on a.id = e.alert_id
      where a.change_id = ${change!.id} order by e.id`;
    expect(events).toEqual(Array(3).fill({ by: "viktor", action: "acknowledged" }));
    const html = await (await getPage(`${web.url}${location}`, viktor)).text();
    expect(html).toContain("Done: 3 alerts of 1 change acknowledged");
    expect(rowsOf(html)).not.toContain(change!.id);
  });

  it("assigns a change's alerts to a user with an 'assigned' event; 'assigned to me' shows them", async () => {
    const [change] = await t.db.sql<
      { id: number }[]
    >`select change_id::int as id from regwatch.alerts where id = ${ids[0]!}`;
    const answer = await postForm(`${web.url}/alerts/bulk`, viktor, {
      changes: [String(change!.id)],
      status: "open",
      action: "assign",
      assignee: "anna",
      return: "/",
    });
    expect(answer.status).toBe(303);
    const assigned = await t.db.sql<{ to: string }[]>`
      select assigned_to as to from regwatch.alerts where change_id = ${change!.id}`;
    expect(assigned.map((a) => a.to)).toEqual(["anna", "anna", "anna"]);
    const events = await t.db.sql<{ details: { from: null; to: string } }[]>`
      select e.details from regwatch.alert_events e join regwatch.alerts a on a.id = e.alert_id
      where a.change_id = ${change!.id} and e.action = 'assigned'`;
    expect(events.map((e) => e.details)).toEqual(Array(3).fill({ from: null, to: "anna" }));
    const anna = await signIn(web.url, "anna");
    const mine = await (await getPage(`${web.url}/?assigned=me`, anna)).text();
    expect(rowsOf(mine)).toEqual([change!.id]);
    expect(mine).toMatch(/<strong>1<\/strong> assigned to me/);
    expect(rowsOf(await (await getPage(`${web.url}/?assigned=me`, viktor)).text())).toEqual([]);
  });

  it("refuses an assignment to a user who does not exist, changing nothing", async () => {
    const answer = await postForm(`${web.url}/alerts/bulk`, viktor, {
      ids: [String(ids[1])],
      action: "assign",
      assignee: "mallory",
    });
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain("There is no console user named &quot;mallory&quot;");
  });

  it("names a bad severity or assigned value with 400", async () => {
    const answer = await getPage(`${web.url}/?severity=urgent&assigned=you`, viktor);
    expect(answer.status).toBe(400);
    const html = await answer.text();
    expect(html).toContain("severity must be one of high, normal");
    expect(html).toContain("assigned can only be");
  });
});
