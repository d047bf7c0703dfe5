/**
 * /changes by keyset (issue 38) over real HTTP: walking "older" to the end and "newer" back gives
 * every row of the feed once, in the feed's order, pages alike both ways, also where a page ends
 * inside rows that tie on day, business and heading (same-day order repeated, unknown, unread);
 * the oldest page; filters kept with a cursor; a cursor that is not one is a 400 naming it, never
 * a 500. The feed (driven from changes since migration 0044) still holds every heading change of
 * the BI views, read or not.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FeedFilter, readFeed } from "../../src/changes/sql/change-feed.ts";
import {
  createUser,
  getPage,
  type SignedIn,
  signIn,
  startTestConsole,
  type TestConsole,
} from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

const SINCE = "2026-01-01";
const ALL: FeedFilter = { since: SINCE, until: null, lists: [], headings: [], taxId: null };
/** The business whose 150 same-day changes of one heading straddle the first page's end. */
const TIED = "10000001";

let t: TestDatabase;
let web: TestConsole;
let session: SignedIn;

/** A change of `headings`; values for `read` of them (the new value names the change and heading). */
async function change(
  taxId: string,
  day: string,
  headings: string[],
  read: { heading: string; dayOrder?: number | null }[],
  list = "key-a",
): Promise<number> {
  const sql = t.db.sql;
  const [row] = await sql<{ id: number }[]>`
    insert into ${sql.t.changes} (tax_id, change_date, chapter, path, changed_headings, raw)
    values (${taxId}, ${day}::date, 'registry', ${`keyset/${taxId}/${day}/${Math.random()}.json`}, ${headings}, '{}'::jsonb)
    returning id::int`;
  const id = row!.id;
  await sql`insert into ${sql.t.change_sources} (change_id, list_key) values (${id}, ${list})`;
  for (const v of read) {
    await sql`
      insert into ${sql.t.change_values} (change_id, heading, tax_id, change_date, old_value, new_value, path, day_order)
      select ${id}, ${v.heading}, tax_id, change_date, '"old"'::jsonb, ${sql.json(`new ${id} ${v.heading}`)}, path,
             ${v.dayOrder ?? null}
      from ${sql.t.changes} where id = ${id}`;
  }
  return id;
}

beforeAll(async () => {
  t = await createTestDatabase();
  const sql = t.db.sql;
  await sql`insert into ${sql.t.watch_lists} (list_key, list_name) values ('key-a', 'suppliers'), ('key-b', 'customers')`;
  // The newest day: the tied business first (smallest tax id), 150 changes of long_name whose
  // same-day order repeats (i % 60), is unknown (null) for the last 30, and 10 of them unread.
  for (let i = 0; i < 150; i++) {
    const unread = i % 15 === 0;
    await change(
      TIED,
      "2026-03-31",
      ["long_name"],
      unread ? [] : [{ heading: "long_name", dayOrder: i < 120 ? i % 60 : null }],
    );
  }
  // Other businesses over three months, some changes of two headings, one with a value beyond its
  // changed headings, every fifth on the second list.
  for (let i = 0; i < 180; i++) {
    const taxId = String(10000002 + (i % 7));
    const day = `2026-0${1 + (i % 3)}-${String(1 + (i % 28)).padStart(2, "0")}`;
    const headings = i % 4 === 0 ? ["address", "long_name"] : ["address"];
    const read = i % 9 === 0 ? [] : headings.map((heading) => ({ heading }));
    if (i === 5) read.push({ heading: "short_name" });
    await change(taxId, day, headings, read, i % 5 === 0 ? "key-b" : "key-a");
  }
  await createUser(t.db, "reader", "reader");
  web = await startTestConsole(t.db, { now: new Date("2026-04-01T09:00:00Z") });
  session = await signIn(web.url, "reader");
}, 120_000);

afterAll(async () => {
  await web?.close();
  await t?.drop();
});

const get = (path: string) => getPage(`${web.url}${path}`, session);

/** The href of the pager's link `rel` (entities decoded), or null. */
function linkOf(html: string, rel: string): string | null {
  const found = html.match(new RegExp(`<a rel="${rel}" href="([^"]*)"`));
  return found ? found[1]!.replaceAll("&amp;", "&") : null;
}

/** Each table row as "tax id|heading|new value" ("unread" when its values were not read). */
function rowsOf(html: string): string[] {
  return [...html.matchAll(/<tr>\s*<td>[\s\S]*?<\/tr>/g)].map((m) => {
    const row = m[0];
    const taxId = /\/businesses\/(\d+)"/.exec(row)![1];
    const heading = /<td title="([^"]*)"/.exec(row)![1];
    const after = /<td class="value new">([^<]*)/.exec(row)![1]!.trim();
    return `${taxId}|${heading}|${after.startsWith("changed, not read") ? "unread" : after}`;
  });
}

async function expected(f: Partial<FeedFilter> = {}): Promise<string[]> {
  const rows = await readFeed(t.db.sql, { ...ALL, ...f });
  return rows.map((r) => `${r.taxId}|${r.heading}|${r.valuesRead ? String(r.newValue) : "unread"}`);
}

/** Follows `rel` from `start` until the pager has no such link: every page's rows, in order. */
async function walk(start: string, rel: "next" | "prev"): Promise<{ pages: string[][]; links: string[] }> {
  const pages: string[][] = [];
  const links = [start];
  let at: string | null = start;
  while (at !== null) {
    const answer = await get(at);
    expect(answer.status, at).toBe(200);
    const html = await answer.text();
    pages.push(rowsOf(html));
    at = linkOf(html, rel);
    if (at !== null) links.push(at);
    expect(pages.length).toBeLessThan(20);
  }
  return { pages, links };
}

describe("/changes by keyset", () => {
  it("walks older to the end and newer back, every row once in the feed's order, ties included", async () => {
    const all = await expected();
    expect(all.length).toBe(150 + 180 + 45 + 1);
    const older = await walk(`/changes?since=${SINCE}`, "next");
    expect(older.pages.map((p) => p.length)).toEqual([100, 100, 100, all.length - 300]);
    expect(older.pages.flat()).toEqual(all);
    // The first page ends inside the tied business's rows: the second goes on with them.
    expect(older.pages[0]!.at(-1)).toMatch(new RegExp(`^${TIED}\\|long_name\\|`));
    expect(older.pages[1]![0]).toMatch(new RegExp(`^${TIED}\\|long_name\\|`));

    const lastPage = older.links.at(-1)!;
    const newer = await walk(lastPage, "prev");
    expect(newer.pages.reverse()).toEqual(older.pages);
  });

  it("shows the oldest rows on the last page and links back from there", async () => {
    const all = await expected();
    const first = await (await get(`/changes?since=${SINCE}`)).text();
    expect(linkOf(first, "first")).toBeNull();
    const last = linkOf(first, "last")!;
    expect(last).toBe(`/changes?since=${SINCE}&last=1`);
    const html = await (await get(last)).text();
    expect(rowsOf(html)).toEqual(all.slice(-100));
    expect(linkOf(html, "next")).toBeNull();
    expect(linkOf(html, "first")).toBe(`/changes?since=${SINCE}`);
    // Newer from the oldest end: full pages back to where fewer than a page remain; the newest
    // page is then the first page, whole (its first rows shown again), never a short one.
    const back = (await walk(last, "prev")).pages.reverse();
    const rest = all.length % 100;
    expect(back[0]).toEqual(all.slice(0, 100));
    expect(back.slice(1).flat()).toEqual(all.slice(rest));
  });

  it("keeps the filters in every link and pages within them", async () => {
    const filter = { lists: ["suppliers"], headings: ["long_name", "address"], taxId: null };
    const rows = await expected(filter);
    expect(rows.length).toBeGreaterThan(100);
    const start = `/changes?since=${SINCE}&list=key-a&heading=long_name,address`;
    const older = await walk(start, "next");
    expect(older.pages.flat()).toEqual(rows);
    for (const link of older.links.slice(1)) {
      expect(link).toMatch(/^\/changes\?since=2026-01-01&list=key-a&heading=long_name%2Caddress&after=/);
    }
    const byTax = await walk(`/changes?since=${SINCE}&tax_id=${TIED}`, "next");
    expect(byTax.pages.flat()).toEqual(await expected({ taxId: TIED }));
    const newer = await walk(byTax.links.at(-1)!, "prev");
    expect(newer.pages.reverse()).toEqual(byTax.pages);
  });

  it("answers 400 naming a cursor that is not one, never 500", async () => {
    const cursor = (parts: unknown) => Buffer.from(JSON.stringify(parts)).toString("base64url");
    const notShape = await get(`/changes?since=${SINCE}&after=${encodeURIComponent("not a cursor!")}`);
    expect(notShape.status).toBe(400);
    expect(await notShape.text()).toContain("the query&#39;s &quot;after&quot; is not in the expected form");
    const bad = [
      "AAAA",
      cursor(["2026-02-30", TIED, "long_name", 1, 5]),
      cursor(["2026-03-31", TIED, "long_name", 1]),
      cursor(["2026-03-31", TIED, "long\u0000name", 1, 5]),
      cursor(["2026-03-31", TIED, "long_name", 1.5, 5]),
      cursor(["2026-03-31", TIED, "long_name", null, -1]),
    ];
    for (const value of bad) {
      for (const side of ["after", "before"]) {
        const answer = await get(`/changes?since=${SINCE}&${side}=${value}`);
        expect(answer.status, `${side}=${value}`).toBe(400);
        expect(await answer.text()).toContain(`${side} is not a place in this list of changes`);
      }
    }
    const good = cursor(["2026-03-31", TIED, "long_name", null, 1]);
    const both = await get(`/changes?since=${SINCE}&after=${good}&before=${good}`);
    expect(both.status).toBe(400);
    expect(await both.text()).toContain("give one of them");
    // A cursor of the right shape whose row is gone still answers: rows from that place on.
    expect(
      (await get(`/changes?since=${SINCE}&after=${cursor(["2030-01-01", "1", "x", null, 1])}`)).status,
    ).toBe(200);
  });

  it("holds every heading change of the BI views, read or not", async () => {
    const feed = await readFeed(t.db.sql, ALL);
    const views = await t.db.sql<{ key: string }[]>`
      select change_id || '|' || heading || '|true' as key from ${t.db.sql.t.v_heading_changes} where change_date >= ${SINCE}::date
      union all
      select u.change_id || '|' || u.heading || '|false' from ${t.db.sql.t.v_change_headings} u
      where u.change_date >= ${SINCE}::date
        and not exists (select 1 from ${t.db.sql.t.change_values} cv where cv.change_id = u.change_id and cv.heading = u.heading)`;
    expect(feed.map((r) => `${r.changeId}|${r.heading}|${r.valuesRead}`).sort()).toEqual(
      views.map((v) => v.key).sort(),
    );
    expect(feed.some((r) => r.heading === "short_name")).toBe(true);
  });
});
