/**
 * The console's inbox under load (issues 28 and 34): 50,000 open alerts from three rules (each
 * change matched by all three, so 16,667 changes, one inbox row each; 20,000 businesses on two
 * lists, values on every heading, one delivered message per alert), the console
 * on a free port, a signed-in user, and the inbox's first page fetched over HTTP 50 times after 5
 * warm-up requests, after a VACUUM ANALYZE (autovacuum's work after a bulk load).
 * `console_inbox_p95_ms` is the 95th percentile of those 50 (target <= 100 ms).
 */
import { loadConfig } from "../src/config.ts";
import { addConsoleUser } from "../src/console/users.ts";
import { openDatabase } from "../src/db/connect.ts";
import { silentLogger } from "../src/logger.ts";
import { finishRun, startRun } from "../src/run/runs.ts";
import { hashPassword } from "../src/web/passwords.ts";
import { startConsole } from "../src/web/server.ts";
import { getPage, signIn } from "../test/helpers/console.ts";

export interface ConsoleBench {
  alerts: number;
  requests: number;
  databaseUrl: string;
}

export async function consoleInbox(p: ConsoleBench): Promise<Record<string, number>> {
  const db = await openDatabase({ databaseUrl: p.databaseUrl, dataDir: "" });
  try {
    await seed(db.sql, p.alerts);
    // VACUUM cannot run in a transaction, and every statement of db.sql runs in one
    // (src/db/scoped-sql.ts): the pool's own connection runs it (what autovacuum does soon after
    // a bulk load: statistics, the visibility map for index-only counts, and the GIN pending list
    // of alert_deliveries.alert_ids merged into the index).
    await db.pool`vacuum analyze`;
    await addConsoleUser(db.sql, {
      name: "bench",
      role: "reviewer",
      passwordHash: await hashPassword("bench password 1"),
    });
    const web = await startConsole(
      { db, config: loadConfig({ DATABASE_URL: p.databaseUrl }), log: silentLogger, now: () => new Date() },
      { host: "127.0.0.1", port: 0 },
    );
    try {
      const session = await signIn(web.url, "bench", "bench password 1");
      const fetchInbox = async () => {
        const started = performance.now();
        const answer = await getPage(`${web.url}/`, session);
        const html = await answer.text();
        const ms = performance.now() - started;
        const rows = Math.ceil(p.alerts / RULES);
        // The console's default language is English, whose numbers group thousands with commas.
        const count = new Intl.NumberFormat("en").format(rows);
        if (answer.status !== 200 || !html.includes(`<strong>${count}</strong> changes with open alerts`)) {
          throw new Error(`the inbox answered ${answer.status} without the expected counts`);
        }
        return ms;
      };
      for (let i = 0; i < 5; i++) await fetchInbox();
      const times: number[] = [];
      for (let i = 0; i < p.requests; i++) times.push(await fetchInbox());
      times.sort((a, b) => a - b);
      const at = (q: number) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)]!;
      return {
        console_open_alerts: p.alerts,
        console_inbox_p50_ms: round(at(0.5)),
        console_inbox_p95_ms: round(at(0.95)),
      };
    } finally {
      await web.close();
    }
  } finally {
    await db.close();
  }
}

const round = (ms: number) => Math.round(ms * 10) / 10;

/** Rules that each match every change: the inbox shows one row per change. */
const RULES = 3;

async function seed(sql: Awaited<ReturnType<typeof openDatabase>>["sql"], alerts: number): Promise<void> {
  const runId = await startRun(sql, "sync", "cli", { options: { kind: "sync" } });
  await sql`insert into regwatch.watch_lists (list_key, list_name) values ('bench-a', 'suppliers'), ('bench-b', 'customers')`;
  await sql`
    insert into regwatch.changes (tax_id, change_date, chapter, path, changed_headings, raw)
    select (10000000 + g % 20000)::text, date '2026-01-01' + (g % 300), 'registry', 'bench/' || g || '.json',
           case when g % 10 = 0 then array['bank_accounts'] else array['seat', 'status'] end, '{}'::jsonb
    from generate_series(1, ${Math.ceil(alerts / RULES)}) g`;
  await sql`
    insert into regwatch.change_sources (change_id, list_key)
    select id, case when id % 3 = 0 then 'bench-b' else 'bench-a' end from regwatch.changes`;
  await sql`
    insert into regwatch.change_values (change_id, heading, tax_id, change_date, old_value, new_value, path)
    select c.id, h, c.tax_id, c.change_date,
           case h when 'bank_accounts' then '[{"bank_account": "11700024-00000001"}]'::jsonb
                  when 'status' then '"1"'::jsonb else to_jsonb('1011 Budapest, Fő utca ' || c.id) end,
           case h when 'bank_accounts' then '[{"bank_account": "10402142-49555052"}]'::jsonb
                  when 'status' then '"2"'::jsonb else to_jsonb('6720 Szeged, Kárász utca ' || c.id) end,
           c.path
    from regwatch.changes c cross join lateral unnest(c.changed_headings) h`;
  await sql`
    insert into regwatch.watched_items (list_key, tax_id)
    select distinct s.list_key, c.tax_id from regwatch.change_sources s join regwatch.changes c on c.id = s.change_id`;
  await sql`
    insert into regwatch.business_profiles (tax_id, name)
    select distinct tax_id, 'Bench ' || tax_id || ' Kft.' from regwatch.changes`;
  await sql`
    insert into regwatch.alert_rules (name, channel, target)
    select 'bench ' || r, 'notify', 'regwatch_bench' from generate_series(1, ${RULES}) r`;
  await sql`
    insert into regwatch.alerts (rule_id, change_id, run_id, raised_at)
    select r.id, c.id, ${runId}, now() - (c.id % 72) * interval '1 hour'
    from regwatch.changes c cross join regwatch.alert_rules r
    order by c.id, r.id
    limit ${alerts}`;
  await sql`
    insert into regwatch.alert_deliveries (rule_id, run_id, kind, alert_ids, channel, target, status, oldest_change, tax_ids)
    select a.rule_id, a.run_id, 'alert', array[a.id], 'notify', 'regwatch_bench', 'sent', c.change_date, array[c.tax_id]
    from regwatch.alerts a join regwatch.changes c on c.id = a.change_id`;
  await finishRun(sql, runId, "ok", { options: { kind: "sync" } });
}
