/**
 * /coverage, /runs and /lists over HTTP against a database filled by a sync against the
 * emulator: the calendar with a gap and an invalid window marked, runs with statistics and a
 * scrubbed error, and the reconcile plan made from the stored remote lists.
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatsFor } from "../../src/i18n/format.ts";
import { addDesiredItems, ensureDesiredList } from "../../src/reconcile/sql/desired-edit.ts";
import { registerSecrets } from "../../src/secrets.ts";
import { checkDigit } from "../../src/taxid.ts";
import { getPage } from "../helpers/console.ts";
import { type PagesWorld, startPagesWorld } from "./pages-fixture.ts";

const SECRET = "console-test-key-8c1f5a7e";

describe("coverage, runs and lists pages", () => {
  let w: PagesWorld;
  let suppliersKey: string;
  let syncRunId: number;

  beforeAll(async () => {
    w = await startPagesWorld({ seed: 14 });
    suppliersKey = w.emulator.listsSnapshot().find((l) => l.list_name === "suppliers")!.list_key;
    const [run] = await w.t.db.sql<{ id: number }[]>`
      select id::int as id from regwatch.runs where kind = 'sync' order by id limit 1`;
    syncRunId = run!.id;
  }, 240_000);
  afterAll(async () => {
    await w?.close();
  });

  const get = (path: string) => getPage(`${w.web.url}${path}`, w.reader);

  it("draws each list's calendar, with a gap and a window held open by invalid items marked and listed", async () => {
    // The sync covered every day since the list was created: take out 2024-03-04, hold 03-06 open.
    await w.t.db.sql`
      delete from regwatch.coverage where list_key = ${suppliersKey} and start_date <= '2024-03-04' and end_date >= '2024-03-04'`;
    await w.t.db.sql`
      insert into regwatch.coverage (list_key, start_date, end_date, change_count) values
        (${suppliersKey}, '2024-01-15', '2024-03-03', 0), (${suppliersKey}, '2024-03-05', '2024-03-09', 0)
      on conflict do nothing`;
    await w.t.db.sql`
      insert into regwatch.invalid_items (list_key, window_start, window_end, change_date, tax_id, reason, item)
      values (${suppliersKey}, '2024-03-06', '2024-03-06', '2024-02-31', '1234', 'impossible date <b>', '{}')`;
    const answer = await get("/coverage?weeks=6");
    expect(answer.status).toBe(200);
    const html = await answer.text();
    const suppliers = sectionOf(html, "<h2>suppliers");
    expect(suppliers).toContain('class="day day-gap" title="4 Mar 2024: missing: due but not covered"');
    expect(suppliers).toMatch(
      /class="day day-invalid" title="6 Mar 2024: held open by invalid items \(1 item, e\.g\. impossible date &lt;b&gt;\)"/,
    );
    expect(suppliers).toContain(
      'class="day day-covered" title="5 Mar 2024: covered: read from the registry"',
    );
    expect(suppliers).toContain('class="day day-future" title="10 Mar 2024: not yet due"');
    expect(suppliers).toContain("4 Mar 2024 … 4 Mar 2024 (1 day)");
    // The reason as recorded, apart in <code>, after the sentence in the reader's words (issue 49).
    expect(suppliers).toContain(
      "6 Mar 2024 … 6 Mar 2024: 1 item the registry sent could not be stored; the first reason, as recorded: <code>impossible date &lt;b&gt;</code>",
    );
    expect(html).toContain("customers");
    expect((await get("/coverage?weeks=0")).status).toBe(400);
  });

  it("lists runs newest first with statistics, filters them and scrubs a key from an error", async () => {
    registerSecrets([SECRET]);
    await w.t.db.sql`
      insert into regwatch.runs (kind, trigger, status, stats, error, finished_at)
      values ('reconcile', 'cli', 'failed', '{"writes": 3}', ${`registry said: key ${SECRET} is not valid`}, now())`;
    const all = await (await get("/runs")).text();
    expect(all).toContain(`#${syncRunId}`);
    expect(all).toContain("registry said: key [redacted] is not valid");
    expect(all).not.toContain(SECRET);
    const [stats] = await w.t.db.sql<{ stats: Record<string, unknown> }[]>`
      select stats from regwatch.runs where id = ${syncRunId}`;
    const figure = Object.entries(stats!.stats).find(([, v]) => typeof v === "number")!;
    // A figure in words with its stored key on hover, its number grouped as English groups it.
    const grouped = formatsFor("en", "UTC").number(figure[1] as number);
    expect(all).toMatch(new RegExp(`<dt title="${figure[0]}">[^<]+</dt><dd>${grouped}</dd>`));
    const failed = await (await get("/runs?status=failed")).text();
    expect(failed).toContain("registry said");
    expect(failed).not.toContain(`#${syncRunId}<`);
    const syncs = await (await get("/runs?kind=sync")).text();
    expect(syncs).not.toContain("registry said");
    expect((await get("/runs?status=bogus")).status).toBe(400);
  });

  it("shows desired lists against the stored remote lists with the plan reconcile would make", async () => {
    const fresh = `1234567${checkDigit("1234567")}`;
    await ensureDesiredList(w.t.db.sql, "suppliers", false);
    await addDesiredItems(
      w.t.db.sql,
      "suppliers",
      [...w.taxIds.slice(0, 20), fresh].map((taxId) => ({ taxId })),
      "cli",
    );
    await ensureDesiredList(w.t.db.sql, "new partners", true);
    await addDesiredItems(w.t.db.sql, "new partners", [{ taxId: "12345678" }], "cli");
    const answer = await get("/lists");
    expect(answer.status).toBe(200);
    const html = await answer.text();
    const suppliers = sectionOf(html, '<h2><a href="/lists/suppliers">suppliers</a></h2>');
    expect(suppliers).toContain(`remote ${suppliersKey}, 20 items`);
    expect(suppliers).toMatch(
      new RegExp(`to add \\(1\\)</h3>\\s*<ul class="ids">\\s*<li><a href="/businesses/${fresh}">`),
    );
    expect(html).toContain('<h2><a href="/lists/new%20partners">new partners</a></h2>');
    expect(html).toContain("<strong>to create</strong>");
    expect(html).toContain("wrong check digit");
    // The other remote list is shown as one regwatch does not manage.
    expect(html).toMatch(/does not manage<\/h2>[\s\S]*<td>customers<\/td>/);
  });

  it("sends a visitor without a session to /login", async () => {
    for (const path of ["/coverage", "/runs", "/lists"]) {
      const answer = await fetch(`${w.web.url}${path}`, { redirect: "manual" });
      expect(answer.status, path).toBe(303);
      expect(answer.headers.get("location")).toBe("/login");
    }
  });
});

/** The part of a page from `start` to the next card: one list's section. */
function sectionOf(html: string, start: string): string {
  const from = html.indexOf(start);
  expect(from).toBeGreaterThan(-1);
  const end = html.indexOf("<section", from);
  return html.slice(from, end < 0 ? undefined : end);
}
