/**
 * The business page over HTTP against a database filled by a sync against the emulator: the
 * profile, business_as_of for a chosen day, the timeline with values, lists, alerts; bad and
 * unknown tax ids named; registry text holding markup shown as text.
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatsFor } from "../../src/i18n/format.ts";
import { getPage } from "../helpers/console.ts";
import { type PagesWorld, startPagesWorld } from "./pages-fixture.ts";

describe("GET /businesses/{tax_id}", () => {
  let w: PagesWorld;
  let taxId: string;
  let changeDay: string;

  beforeAll(async () => {
    w = await startPagesWorld();
    // A watched business with stored values: the page must show them.
    const [row] = await w.t.db.sql<{ tax_id: string; day: string }[]>`
      select cv.tax_id, to_char(max(cv.change_date), 'YYYY-MM-DD') as day
      from regwatch.change_values cv join regwatch.business_profiles p on p.tax_id = cv.tax_id
      where p.name is not null
      group by cv.tax_id order by count(*) desc, cv.tax_id limit 1`;
    taxId = row!.tax_id;
    changeDay = row!.day;
  }, 240_000);
  afterAll(async () => {
    await w?.close();
  });

  const get = (path: string) => getPage(`${w.web.url}${path}`, w.reader);

  it("shows the profile, the lists, the timeline with values and the alerts to a reader", async () => {
    const answer = await get(`/businesses/${taxId}`);
    expect(answer.status).toBe(200);
    const html = await answer.text();
    const [profile] = await w.t.db.sql<{ name: string }[]>`
      select name from regwatch.business_profiles where tax_id = ${taxId}`;
    expect(html).toContain(escapeHtml(profile!.name));
    expect(html).toContain("Profile today");
    expect(html).toContain(formatsFor("en", "Europe/Budapest").day(changeDay));
    const lists = await w.t.db.sql<{ list_name: string }[]>`
      select list_name from regwatch.v_watch_status where tax_id = ${taxId}`;
    expect(lists.length).toBeGreaterThan(0);
    for (const l of lists) expect(html).toContain(l.list_name);
    const alerts = await w.t.db.sql<{ id: number }[]>`
      select a.id::int as id from regwatch.alerts a join regwatch.changes c on c.id = a.change_id
      where c.tax_id = ${taxId}`;
    expect(alerts.length).toBeGreaterThan(0);
    for (const a of alerts.slice(0, 5)) expect(html).toContain(`href="/alerts/${a.id}"`);
    // Every changed heading of the newest day is in the timeline with the value it took.
    const newest = await w.t.db.sql<{ heading: string }[]>`
      select distinct heading from regwatch.change_values where tax_id = ${taxId} and change_date = ${changeDay}`;
    // Each heading in words, its stored key on hover.
    for (const h of newest) expect(html).toContain(`<strong title="${h.heading}">`);
  });

  it("shows business_as_of for the day asked, and the day before the first change differs", async () => {
    const [first] = await w.t.db.sql<{ day: string; heading: string; old: unknown; new: unknown }[]>`
      select to_char(change_date, 'YYYY-MM-DD') as day, heading, old_value as old, new_value as new
      from regwatch.change_values where tax_id = ${taxId} and not order_ambiguous
        and heading = 'long_name' order by change_date, day_order limit 1`;
    const day = first?.day ?? changeDay;
    const answer = await get(`/businesses/${taxId}?as_of=${day}`);
    expect(answer.status).toBe(200);
    const html = await answer.text();
    expect(html).toContain(`As of ${formatsFor("en", "Europe/Budapest").day(day)}`);
    const [asOf] = await w.t.db.sql<{ v: Record<string, unknown> }[]>`
      select regwatch.business_as_of(${taxId}, ${day}::date) as v`;
    for (const [heading, value] of Object.entries(asOf!.v)) {
      if (heading.startsWith("_") || typeof value !== "string") continue;
      expect(html).toContain(escapeHtml(value));
    }
  });

  it("lists the payment checks that named the business, those recorded before payee tax bases too", async () => {
    const [batch] = await w.t.db.sql<{ id: string }[]>`
      insert into regwatch.payment_batches (source, checked_by, file_name, row_count)
      values ('cli', 'ops', 'march.csv', 2) returning id`;
    await w.t.db.sql`
      insert into regwatch.payment_checks (batch_id, line, tax_id, tax_base, bank_account, verdict, detail)
      values (${batch!.id}, 2, ${`${taxId}-2-41`}, null, '11773016-11111018-00000000', 'account_not_registered', 'older row'),
             (${batch!.id}, 3, null, ${taxId}, '11773016-11111025-00000000', 'ok', null),
             (${batch!.id}, 4, '10000018', '10000018', '11773016-11111032-00000000', 'ok', 'another payee')`;
    const html = await (await get(`/businesses/${taxId}`)).text();
    expect(html).toContain("older row");
    expect(html).toContain("11773016-11111025-00000000");
    expect(html).not.toContain("another payee");
    expect(html).toContain(`href="/payments/${batch!.id}">march.csv</a>`);
  });

  it("answers 400 naming a bad day or a bad tax id, 404 for a business nothing knows", async () => {
    const badDay = await get(`/businesses/${taxId}?as_of=2024-02-30`);
    expect(badDay.status).toBe(400);
    expect(await badDay.text()).toContain("as_of &quot;2024-02-30&quot; is not a date");
    const badId = await get("/businesses/12345670x");
    expect(badId.status).toBe(400);
    expect(await badId.text()).toContain("12345670x");
    const badDigit = await get("/businesses/12345678");
    expect(badDigit.status).toBe(400);
    expect(await badDigit.text()).toContain("wrong check digit");
    const unknown = await get("/businesses/10000001");
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain("10000001");
  });

  it("leads a tax number or the search box to the tax base number's page", async () => {
    const search = await get(`/businesses?tax_id=${taxId}-2-41`);
    expect(search.status).toBe(303);
    expect(search.headers.get("location")).toBe(`/businesses/${taxId}`);
    const long = await get(`/businesses/${taxId}-2-41?as_of=2024-03-01`);
    expect(long.status).toBe(303);
    expect(long.headers.get("location")).toBe(`/businesses/${taxId}?as_of=2024-03-01`);
  });

  it("shows a value holding markup as text", async () => {
    const hostile = `<script>alert("x")</script><img src=x onerror=alert(1)>`;
    await w.t.db.sql`
      update regwatch.business_profiles set name = ${hostile},
        headings = headings || jsonb_build_object('long_name', jsonb_build_object('value', ${hostile}::text, 'as_of', '2024-03-09', 'source', 'change_file'))
      where tax_id = ${taxId}`;
    const html = await (await get(`/businesses/${taxId}`)).text();
    expect(html).not.toContain("<script>alert");
    expect(html).not.toContain("<img src=x");
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
  });

  it("sends a visitor without a session to /login", async () => {
    const answer = await fetch(`${w.web.url}/businesses/${taxId}`, { redirect: "manual" });
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe("/login");
  });
});

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}
