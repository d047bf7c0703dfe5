/**
 * /changes and its downloads over HTTP against a database filled by a sync against the emulator:
 * the CLI's filters (checked, named when wrong), paging by the links' cursors, the CSV (`;`, BOM, formula cells
 * neutralised, same filters) and the workbook (one row per changed heading, days as dates).
 */
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FeedFilter, readFeed } from "../../src/changes/sql/change-feed.ts";
import { getPage } from "../helpers/console.ts";
import { type PagesWorld, startPagesWorld } from "./pages-fixture.ts";

const SINCE = "2024-01-01";

/** The href of the pager's link `rel` (entities decoded), or null. */
function linkOf(html: string, rel: string): string | null {
  const found = html.match(new RegExp(`<a rel="${rel}" href="([^"]*)"`));
  return found ? found[1]!.replaceAll("&amp;", "&") : null;
}

/** The table's rows as text, to compare two pages. */
function rowsOf(html: string): string[] {
  return [...html.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) => m[1]!.replace(/\s+/g, " "));
}

describe("GET /changes, /changes.csv, /changes.xlsx", () => {
  let w: PagesWorld;
  let hostileTaxId: string;

  beforeAll(async () => {
    w = await startPagesWorld({ seed: 12 });
    // A value a spreadsheet would run as a formula, as a registry (or an attacker upstream) could send.
    const [row] = await w.t.db.sql<{ tax_id: string }[]>`
      update regwatch.change_values set new_value = to_jsonb('=HYPERLINK("http://x.test","click")'::text)
      where (change_id, heading) = (select change_id, heading from regwatch.change_values order by change_id, heading limit 1)
      returning tax_id`;
    hostileTaxId = row!.tax_id;
  }, 240_000);
  afterAll(async () => {
    await w?.close();
  });

  const get = (path: string) => getPage(`${w.web.url}${path}`, w.reader);
  /** What `regwatch changes --since 2024-01-01` with these filters reads. */
  const feed = (f: Partial<FeedFilter> = {}) =>
    readFeed(w.t.db.sql, { since: SINCE, until: null, lists: [], headings: [], taxId: null, ...f });

  it("lists the feed page by page with the filters kept in the links", async () => {
    const all = await feed();
    expect(all.length).toBeGreaterThan(100);
    const first = await get(`/changes?since=${SINCE}`);
    expect(first.status).toBe(200);
    const html = await first.text();
    expect(html).toContain(`/businesses/${all[0]!.taxId}`);
    const older = linkOf(html, "next");
    expect(older).toMatch(new RegExp(`^/changes\\?since=${SINCE}&after=[A-Za-z0-9_-]+$`));
    expect(linkOf(html, "prev")).toBeNull();
    const second = await (await get(older!)).text();
    expect(second).toContain(`/businesses/${all[100]!.taxId}`);
    expect(linkOf(second, "first")).toBe(`/changes?since=${SINCE}`);
    const back = await (await get(linkOf(second, "prev")!)).text();
    expect(rowsOf(back)).toEqual(rowsOf(html));
  });

  it("filters by list, heading and tax id as `regwatch changes` does", async () => {
    const listKey = w.emulator.listsSnapshot().find((l) => l.list_name === "customers")!.list_key;
    const rows = await feed({ lists: ["customers"] });
    const onlySuppliers = w.taxIds.slice(0, 10);
    const html = await (await get(`/changes?since=${SINCE}&list=${listKey}`)).text();
    for (const id of onlySuppliers) expect(html).not.toContain(`/businesses/${id}"`);
    expect(html).toContain(`/businesses/${rows[0]!.taxId}"`);
    const byTax = await (await get(`/changes?since=${SINCE}&tax_id=${hostileTaxId}`)).text();
    const others = [...byTax.matchAll(/href="\/businesses\/(\d{8})"/g)].map((m) => m[1]);
    expect(new Set(others)).toEqual(new Set([hostileTaxId]));
  });

  it("answers 400 naming every bad filter", async () => {
    const answer = await get("/changes?since=2024-13-01&list=nope&tax_id=abc");
    expect(answer.status).toBe(400);
    const html = await answer.text();
    expect(html).toContain("since &quot;2024-13-01&quot; is not a date");
    expect(html).toContain("list nope: no such watch list");
    expect(html).toContain("tax_id &quot;abc&quot;");
    expect((await get("/changes.csv?until=2023-01-01&since=2024-01-01")).status).toBe(400);
  });

  it("downloads every row as `;` CSV with a BOM and formula cells neutralised", async () => {
    const answer = await get(`/changes.csv?since=${SINCE}&format=machine`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(answer.headers.get("content-disposition")).toMatch(
      /^attachment; filename="regwatch-changes-2024-01-01\.csv"$/,
    );
    const bytes = new Uint8Array(await answer.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes.slice(3));
    const lines = text.trimEnd().split("\r\n");
    expect(lines[0]).toBe(
      "change_date;tax_id;business_name;lists;heading;old_value;new_value;order_ambiguous",
    );
    const all = await feed();
    expect(lines.length - 1).toBe(all.length);
    expect(text).toContain(`"'=HYPERLINK(""http://x.test"",""click"")"`);
    expect(text).not.toMatch(/(^|;)=HYPERLINK/m);
  });

  it("downloads a workbook with one row per changed heading and the day as a date", async () => {
    const answer = await get(`/changes.xlsx?since=${SINCE}&heading=bank_accounts,long_name&format=machine`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toContain("spreadsheetml.sheet");
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(await answer.arrayBuffer()) as never);
    const sheet = book.getWorksheet("changes")!;
    const rows = await feed({ headings: ["bank_accounts", "long_name"] });
    expect(rows.length).toBeGreaterThan(0);
    expect(sheet.actualRowCount).toBe(rows.length + 1);
    const second = sheet.getRow(2);
    expect(second.getCell(1).value).toBeInstanceOf(Date);
    expect((second.getCell(1).value as Date).toISOString().slice(0, 10)).toBe(rows[0]!.changeDate);
    expect(second.getCell(2).value).toBe(rows[0]!.taxId);
    const headings = new Set<string>();
    sheet.eachRow((row, n) => {
      if (n > 1) headings.add(String(row.getCell(5).value));
    });
    expect([...headings].sort()).toEqual([...new Set(rows.map((r) => r.heading))].sort());
  });

  it("sends a visitor without a session to /login, downloads included", async () => {
    for (const path of ["/changes", "/changes.csv", "/changes.xlsx"]) {
      const answer = await fetch(`${w.web.url}${path}`, { redirect: "manual" });
      expect(answer.status, path).toBe(303);
      expect(answer.headers.get("location")).toBe("/login");
    }
  });
});
