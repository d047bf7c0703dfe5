/**
 * Daily: what the next morning's sync costs a database that is already synced. Lists with
 * history are backfilled on the emulator's clock, the clock moves one day on, and one more
 * sync runs. Counts the requests it sends (the target: one lists request, one changes request per
 * list, one items request per list, since a new day's sync reads every list's items once, and
 * one per new change file) and the row versions it writes for changes already stored
 * (pg_stat_user_tables n_tup_upd of changes; the target is 0). The daemon's reconcile reads the
 * items of the lists it manages first, and the sync after it skips those: the target here, with
 * no reconcile, is the most a morning costs.
 */
import { loadConfig } from "../src/config.ts";
import { addDays } from "../src/dates.ts";
import { openDatabase, type Sql } from "../src/db/connect.ts";
import { startEmulator } from "../src/emulator/index.ts";
import { runSyncJob } from "../src/jobs/sync-job.ts";
import { silentLogger } from "../src/logger.ts";

export interface DailyParams {
  lists: number;
  itemsPerList: number;
  weeks: number;
  databaseUrl: string;
}

export interface DailyResult {
  daily_requests: number;
  daily_requests_target: number;
  daily_change_requests: number;
  daily_item_requests: number;
  daily_new_files: number;
  daily_rows_rewritten: number;
  daily_changes_stored: number;
}

// 08:00 in Budapest: the previous day is complete.
const MORNING = "2025-06-02T08:00:00+02:00";

export async function daily(p: DailyParams): Promise<DailyResult> {
  const emulator = await startEmulator({
    seed: 16,
    businesses: Math.max(5000, p.lists * p.itemsPerList * 2),
    now: MORNING,
    frozenClock: true,
    rateLimit: 1000,
  });
  // Connections in the account's schema, as the product's own (statements name no schema).
  const db = await openDatabase({ databaseUrl: p.databaseUrl, dataDir: "" }, { max: 1 });
  const sql = db.sql;
  try {
    const ids = emulator
      .sampleBusinesses({ limit: p.lists * p.itemsPerList * 4 })
      .filter((r) => r.type !== "budget_orgs")
      .map((r) => String(r.tax_number ?? "").slice(0, 8))
      .filter((id) => /^\d{8}$/.test(id));
    const unique = [...new Set(ids)];
    const createdAt = addDays("2025-06-01", -7 * p.weeks);
    for (let i = 0; i < p.lists; i++) {
      const taxIds = unique.slice(i * p.itemsPerList, (i + 1) * p.itemsPerList);
      const response = await fetch(`${emulator.url}/_emulator/lists`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: `daily-${i}`, createdAt, taxIds }),
      });
      if (!response.ok) throw new Error(`seeding list failed: ${response.status}`);
    }
    const config = loadConfig({
      DATABASE_URL: p.databaseUrl,
      REGWATCH_WATCH_URL: emulator.url,
      REGWATCH_API_KEY: emulator.apiKey,
      REGWATCH_RATE_LIMIT: "1000",
      REGWATCH_LOG_LEVEL: "warn",
    });
    // Each sync on a pool of its own, closed after it: a backend that exits has flushed its
    // statistics, so the counters read afterwards are complete.
    const sync = async () => {
      const own = await openDatabase({ databaseUrl: p.databaseUrl, dataDir: "" }, { max: 4 });
      try {
        const result = await runSyncJob(
          { sql: own.sql, config, log: silentLogger, trigger: "cli", now: () => emulator.now() },
          { kind: "sync" },
        );
        if (result.status !== "ok")
          throw new Error(`daily sync ended ${result.status}: ${result.error ?? ""}`);
      } finally {
        await own.close();
      }
    };
    await sync();

    emulator.advance(24 * 3600 * 1000);
    emulator.resetLog();
    const filesBefore = await count(sql, "change_files");
    const updatesBefore = await updates(sql);
    await sync();
    const log = emulator.requests();
    const newFiles = (await count(sql, "change_files")) - filesBefore;
    const changeRequests = log.filter((r) => r.endpoint === "GET /v2/lists/:key/changes").length;
    const itemRequests = log.filter((r) => r.endpoint === "GET /v2/lists/:key/items").length;
    return {
      daily_requests: log.length,
      // lists (changes) + lists (items, once a day) + 1 (the lists) + new files
      daily_requests_target: 2 * p.lists + 1 + newFiles,
      daily_change_requests: changeRequests,
      daily_item_requests: itemRequests,
      daily_new_files: newFiles,
      daily_rows_rewritten: (await updates(sql)) - updatesBefore,
      daily_changes_stored: await count(sql, "changes"),
    };
  } finally {
    await db.close();
    await emulator.close();
  }
}

async function count(sql: Sql, table: string): Promise<number> {
  const [row] = await sql<{ n: number }[]>`select count(*)::int as n from ${sql(`regwatch`)}.${sql(table)}`;
  return row?.n ?? 0;
}

/** Row versions written by updates of changes (HOT ones included), as the statistics see them. */
async function updates(sql: Sql): Promise<number> {
  // A backend's counters reach the shared statistics as it exits; give the last one a moment.
  await new Promise((r) => setTimeout(r, 500));
  await sql`select pg_stat_clear_snapshot()`;
  const [row] = await sql<{ n: number }[]>`
    select coalesce(n_tup_upd, 0)::int as n from pg_stat_user_tables
    where schemaname = 'regwatch' and relname = 'changes'`;
  return row?.n ?? 0;
}
