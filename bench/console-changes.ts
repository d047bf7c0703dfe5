/**
 * The console's /changes over three years (issue 38): `headingChanges` heading changes (1,000,000
 * at full size) on 50,000 businesses and two lists, written by SQL in a few statements (not
 * through the sync): three changes in four change one heading, the fourth two (1.25 a change);
 * one change in fifty has no values read (its file pending), so unread rows are paged too. After
 * a VACUUM ANALYZE and a checkpoint (what follows a bulk load soon), the console on a free port, a
 * signed-in user and the pages asked (the first, the 100th, the 2,000th) taking turns over HTTP:
 * 5 warm-up rounds, then `requests` timed ones. A deep page is reached as a reader reaches it, by
 * the link of the page before: its cursor (the key of that page's last row) is computed here
 * from the data. `console_changes_p95_ms` is the worst page's 95th percentile (target <= 100 ms);
 * each page's median and 95th percentile beside it.
 */

import { loadConfig } from "../src/config.ts";
import { addConsoleUser } from "../src/console/users.ts";
import type { Sql } from "../src/db/connect.ts";
import { openDatabase } from "../src/db/connect.ts";
import { silentLogger } from "../src/logger.ts";
import { encodeCursor } from "../src/web/pages/changes-cursor.ts";
import { hashPassword } from "../src/web/passwords.ts";
import { startConsole } from "../src/web/server.ts";
import { getPage, signIn } from "../test/helpers/console.ts";

export interface ConsoleChangesBench {
  headingChanges: number;
  requests: number;
  /** Pages measured (1-based; a page beyond the feed's last is measured as the last). */
  pages: readonly number[];
  databaseUrl: string;
}

/** The console's page size of /changes (src/web/pages/changes.ts). */
const PAGE_SIZE = 100;
const LAST_DAY = "2026-11-26";
const DAYS = 3 * 365 + 1;
const BUSINESSES = 50_000;

export async function consoleChanges(p: ConsoleChangesBench): Promise<Record<string, number>> {
  const db = await openDatabase({ databaseUrl: p.databaseUrl, dataDir: "" });
  try {
    const rows = await seed(db.sql, p.headingChanges);
    // VACUUM cannot run in a transaction, and every statement of db.sql runs in one. The
    // checkpoint writes out the load now rather than while pages are timed (a server whose role
    // may not checkpoint does it in its own time).
    await db.pool`vacuum analyze`;
    await db.pool`checkpoint`.catch(() => {});
    await addConsoleUser(db.sql, {
      name: "bench",
      role: "reader",
      passwordHash: await hashPassword("bench password 1"),
    });
    const since = addDays(LAST_DAY, -(DAYS - 1));
    const lastPage = Math.max(1, Math.ceil(rows / PAGE_SIZE));
    const targets: { asked: number; path: string; firstTaxId: string | null }[] = [];
    for (const asked of p.pages) {
      const page = Math.min(asked, lastPage);
      const after = page === 1 ? null : await keyAt(db.sql, (page - 1) * PAGE_SIZE - 1);
      const expected = await keyAt(db.sql, (page - 1) * PAGE_SIZE);
      const query = new URLSearchParams({ since });
      if (after) query.set("after", after.cursor);
      targets.push({ asked, path: `/changes?${query}`, firstTaxId: expected?.taxId ?? null });
    }
    const web = await startConsole(
      { db, config: loadConfig({ DATABASE_URL: p.databaseUrl }), log: silentLogger, now: () => new Date() },
      { host: "127.0.0.1", port: 0 },
    );
    try {
      const session = await signIn(web.url, "bench", "bench password 1");
      const fetchPage = async (target: (typeof targets)[number]) => {
        const started = performance.now();
        const answer = await getPage(`${web.url}${target.path}`, session);
        const html = await answer.text();
        const ms = performance.now() - started;
        const shown = target.firstTaxId === null || html.includes(`/businesses/${target.firstTaxId}"`);
        if (answer.status !== 200 || !shown) {
          throw new Error(`/changes page ${target.asked} answered ${answer.status} without its first row`);
        }
        return ms;
      };
      // The pages in turn, round after round: a busy spell of the machine falls on all of them alike.
      const times = targets.map(() => [] as number[]);
      for (let round = 0; round < 5 + p.requests; round++) {
        for (const [i, target] of targets.entries()) {
          const ms = await fetchPage(target);
          if (round >= 5) times[i]!.push(ms);
        }
      }
      const figures: Record<string, number> = { console_changes_rows: rows };
      let worst = 0;
      for (const [i, target] of targets.entries()) {
        const p95 = round(percentile(times[i]!, 0.95));
        figures[`console_changes_page_${target.asked}_p50_ms`] = round(percentile(times[i]!, 0.5));
        figures[`console_changes_page_${target.asked}_p95_ms`] = p95;
        worst = Math.max(worst, p95);
      }
      return { console_changes_p95_ms: worst, ...figures };
    } finally {
      await web.close();
    }
  } finally {
    await db.close();
  }
}

function percentile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

const round = (ms: number) => Math.round(ms * 10) / 10;

function addDays(day: string, days: number): string {
  const at = new Date(`${day}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
}

/**
 * The key of the feed's row at `offset` (0-based) in the feed's order. Here every value read is
 * of a changed heading and none has a same-day order, so the feed's rows are the changes'
 * headings, ordered by day (newest first), tax id, heading and change (newest first).
 */
async function keyAt(sql: Sql, offset: number) {
  const [row] = await sql<{ changeDate: string; taxId: string; heading: string; changeId: number }[]>`
    select to_char(c.change_date, 'YYYY-MM-DD') as "changeDate", c.tax_id as "taxId", h.heading,
           c.id::int as "changeId"
    from ${sql.t.changes} c cross join lateral unnest(c.changed_headings) as h(heading)
    order by c.change_date desc, c.tax_id, h.heading, c.id desc
    offset ${offset} limit 1`;
  return row ? { taxId: row.taxId, cursor: encodeCursor({ ...row, dayOrder: null }) } : null;
}

/** Writes about `headingChanges` heading changes over three years; the number written. */
async function seed(sql: Sql, headingChanges: number): Promise<number> {
  const changes = Math.ceil((headingChanges * 4) / 5);
  await sql`insert into ${sql.t.watch_lists} (list_key, list_name) values ('bench-a', 'suppliers'), ('bench-b', 'customers')`;
  await sql`
    insert into ${sql.t.changes} (tax_id, change_date, chapter, path, changed_headings, raw)
    select (10000000 + (g::bigint * 7919) % ${BUSINESSES})::text, ${LAST_DAY}::date - (g % ${DAYS}), 'registry',
           'bench/' || g || '.json',
           case g % 4 when 0 then array['bank_accounts', 'status'] when 1 then array['seat']
                      when 2 then array['long_name'] else array['status'] end,
           '{}'::jsonb
    from generate_series(1, ${changes}) g`;
  await sql`
    insert into ${sql.t.change_sources} (change_id, list_key)
    select id, case when id % 3 = 0 then 'bench-b' else 'bench-a' end from ${sql.t.changes}`;
  // One change in fifty is left unread: its file pending, its headings rows without values.
  await sql`
    insert into ${sql.t.change_files} (path, status, change_ids, newest_change)
    select path, 'pending', array[id], change_date from ${sql.t.changes} where id % 50 = 0`;
  await sql`
    insert into ${sql.t.change_values} (change_id, heading, tax_id, change_date, old_value, new_value, path)
    select c.id, h, c.tax_id, c.change_date,
           case h when 'bank_accounts' then '[{"bank_account": "11700024-00000001"}]'::jsonb
                  when 'status' then '1'::jsonb else to_jsonb('Régi ' || c.id) end,
           case h when 'bank_accounts' then '[{"bank_account": "10402142-49555052"}]'::jsonb
                  when 'status' then '2'::jsonb else to_jsonb('Új ' || c.id) end,
           c.path
    from ${sql.t.changes} c cross join lateral unnest(c.changed_headings) h
    where c.id % 50 <> 0`;
  await sql`
    insert into ${sql.t.business_profiles} (tax_id, name)
    select distinct tax_id, 'Bench ' || tax_id || ' Kft.' from ${sql.t.changes}`;
  const [count] = await sql<{ rows: number }[]>`
    select coalesce(sum(cardinality(changed_headings)), 0)::int as rows from ${sql.t.changes}`;
  return count!.rows;
}
