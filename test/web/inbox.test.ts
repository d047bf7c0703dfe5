/**
 * The inbox over real HTTP with alerts raised by the alert scan: grouped by business, headings as
 * old → new in words, the counts bar, filters in the query string, pages, escaping, and the bulk
 * action (reviewer only, CSRF checked, nothing changed when refused).
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

const statusOf = async (id: number) =>
  (
    await t.db.sql<{ status: string; by: string | null }[]>`
    select status, status_by as by from regwatch.alerts where id = ${id}`
  )[0]!;

beforeAll(async () => {
  t = await createTestDatabase();
  web = await startTestConsole(t.db);
  await createUser(t.db, "rita", "reader");
  await createUser(t.db, "viktor", "reviewer");
  await addNotifyRule(t.db.sql);
  await nameBusiness(t.db.sql, "11111111", "Alpha Kft.");
  await nameBusiness(t.db.sql, "22222222", "<script>alert('x')</script> Bt.");
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
      taxId: "11111111",
      date: "2026-11-21",
      headings: ["status"],
      lists: ["suppliers"],
      values: { status: ["1", "2"] },
    },
    { taxId: "22222222", date: "2026-11-22", headings: ["seat"], lists: ["customers"] },
  ]);
  reader = await signIn(web.url, "rita");
  reviewer = await signIn(web.url, "viktor");
});
afterAll(async () => {
  await web?.close();
  await t?.drop();
});

describe("the inbox", () => {
  it("groups open alerts by business, newest first, with headings in words and the counts bar", async () => {
    const answer = await getPage(`${web.url}/`, reader);
    expect(answer.status).toBe(200);
    const html = await answer.text();
    // Newest alert first: the second business's seat change heads the page.
    expect(html.indexOf("22222222")).toBeLessThan(html.indexOf("Alpha Kft."));
    expect(html).toContain(
      '11700024-00000001</span><span class="arrow">→</span><span class="new">10402142-49555052',
    );
    expect(html).toMatch(/operating<\/span><span class="arrow">→<\/span><span class="new">suspended/);
    expect(html).toContain("changed (values not read yet)");
    expect(html).toMatch(/<strong>3<\/strong> changes with open alerts/);
    expect(html).toMatch(/<strong>3<\/strong> new since yesterday/);
    expect(html).toMatch(/<strong>1<\/strong> bank-account change</);
    // A new bank account and a status to suspended are high; the seat change is normal.
    expect(html).toMatch(/<strong>2<\/strong> of high severity/);
    expect(html).toContain("suppliers");
  });

  it("names the lists a business is on now in its group", async () => {
    await t.db.sql`insert into regwatch.watch_lists (list_key, list_name) values ('key-vip', 'vip')`;
    await t.db
      .sql`insert into regwatch.watched_items (list_key, tax_id) values ('key-suppliers', '11111111'), ('key-vip', '11111111')`;
    const html = await (await getPage(`${web.url}/`, reader)).text();
    expect(html).toMatch(
      /Alpha Kft\.<\/a><\/strong>\s*<span>11111111<\/span>\s*<span class="lists">suppliers, vip<\/span>/,
    );
    // Not on any list as last read: the lists that reported its change.
    expect(html).toMatch(/<span>22222222<\/span>\s*<span class="lists">customers<\/span>/);
  });

  it("shows a name holding <script> as text", async () => {
    const html = await (await getPage(`${web.url}/`, reader)).text();
    expect(html).toContain("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; Bt.");
    expect(html).not.toContain("<script>alert");
  });

  it("filters by heading, list, rule, status and date from the query string", async () => {
    const only = async (query: string) => {
      const html = await (await getPage(`${web.url}/?${query}`, reader)).text();
      return ids.filter((id) => html.includes(`href="/alerts/${id}"`));
    };
    expect(await only("heading=bank_accounts")).toEqual([ids[0]]);
    expect(await only("list=customers")).toEqual([ids[2]]);
    expect(await only("rule=everything")).toEqual(ids);
    expect(await only("rule=nosuch")).toEqual([]);
    expect(await only("from=2026-11-21&to=2026-11-21")).toEqual([ids[1]]);
    expect(await only("status=resolved")).toEqual([]);
  });

  it("names a bad filter value with 400", async () => {
    const answer = await getPage(`${web.url}/?status=bogus&from=2026-13-01`, reader);
    expect(answer.status).toBe(400);
    const html = await answer.text();
    expect(html).toContain(
      "status must be one of open, acknowledged, resolved, snoozed, all; got &quot;bogus&quot;",
    );
    expect(html).toContain("from must be a date as YYYY-MM-DD");
  });

  it("offers no selection or bulk form fields to a reader, and answers a reader's bulk POST with 403", async () => {
    const html = await (await getPage(`${web.url}/`, reader)).text();
    expect(html).not.toContain('name="changes"');
    const refused = await postForm(`${web.url}/alerts/bulk`, reader, {
      ids: [String(ids[0])],
      action: "ack",
    });
    expect(refused.status).toBe(403);
    expect((await statusOf(ids[0]!)).status).toBe("open");
  });

  it("refuses a bulk POST without or with a wrong _csrf with 403, changing nothing", async () => {
    const fields = { ids: [String(ids[0])], action: "resolve", note: "forged" };
    expect((await postForm(`${web.url}/alerts/bulk`, reviewer, fields, null)).status).toBe(403);
    expect((await postForm(`${web.url}/alerts/bulk`, reviewer, fields, reader.csrf)).status).toBe(403);
    expect((await statusOf(ids[0]!)).status).toBe("open");
    const events = await t.db.sql`select 1 from regwatch.alert_events where alert_id is not null`;
    expect(events).toHaveLength(0);
  });

  it("acknowledges several selected alerts at once as the signed-in reviewer, and they leave the inbox", async () => {
    const answer = await postForm(`${web.url}/alerts/bulk`, reviewer, {
      ids: [String(ids[0]), String(ids[1])],
      action: "ack",
      note: "called the supplier",
      by: "mallory",
      return: "/?list=suppliers",
    });
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe("/?list=suppliers&done=ack&alerts=2&changes=2");
    for (const id of [ids[0]!, ids[1]!])
      expect(await statusOf(id)).toEqual({ status: "acknowledged", by: "viktor" });
    const html = await (await getPage(`${web.url}/`, reviewer)).text();
    expect(html).not.toContain(`href="/alerts/${ids[0]}"`);
    expect(html).toContain(`href="/alerts/${ids[2]}"`);
    const acknowledged = await (await getPage(`${web.url}/?status=acknowledged`, reviewer)).text();
    expect(acknowledged).toContain(`href="/alerts/${ids[0]}"`);
  });

  it("refuses a bulk action that names no alert or a snooze in the past with 400", async () => {
    expect((await postForm(`${web.url}/alerts/bulk`, reviewer, { action: "ack" })).status).toBe(400);
    const past = await postForm(`${web.url}/alerts/bulk`, reviewer, {
      ids: [String(ids[2])],
      action: "snooze",
      until: "2020-01-01",
    });
    expect(past.status).toBe(400);
    expect(await past.text()).toContain("until must be today");
    expect((await statusOf(ids[2]!)).status).toBe("open");
  });

  it("never sends the user to another site after an action", async () => {
    const answer = await postForm(`${web.url}/alerts/bulk`, reviewer, {
      ids: [String(ids[2])],
      action: "comment",
      note: "looking",
      return: "//evil.example/",
    });
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe("/?done=comment&alerts=1&changes=1");
  });
});

describe("inbox pages", () => {
  it("shows 50 alerts a page with links to the next and previous pages keeping the filters", async () => {
    const many = Array.from({ length: 55 }, (_, i) => ({
      taxId: `3${String(i).padStart(7, "0")}`,
      date: "2026-11-23",
      headings: ["name"],
      lists: ["bulk"],
    }));
    const bulkIds = await raiseAlerts(t.db.sql, many);
    const first = await (await getPage(`${web.url}/?list=bulk`, reader)).text();
    expect(first.match(/href="\/alerts\/\d+"/g)).toHaveLength(50);
    expect(first).toContain('href="/?list=bulk&amp;page=2"');
    const second = await (await getPage(`${web.url}/?list=bulk&page=2`, reader)).text();
    const shown = [...second.matchAll(/href="\/alerts\/(\d+)"/g)].map((m) => Number(m[1]));
    expect(shown).toEqual(bulkIds.slice(0, 5).reverse());
    expect(second).toContain('href="/?list=bulk&amp;page=1"');
  });
});
