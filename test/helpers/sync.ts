import { type Config, loadConfig } from "../../src/config.ts";
import type { Sql } from "../../src/db/connect.ts";
import type { RunningEmulator } from "../../src/emulator/index.ts";
import { runSyncJob, type SyncJobResult } from "../../src/jobs/sync-job.ts";
import { silentLogger } from "../../src/logger.ts";
import type { SyncPassOptions } from "../../src/sync/sync-pass.ts";

/** Environment pointing regwatch at an emulator. */
export function emulatorEnv(
  emulator: RunningEmulator,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    REGWATCH_WATCH_URL: emulator.url,
    REGWATCH_SEARCH_URL: emulator.url,
    REGWATCH_API_KEY: emulator.apiKey,
    REGWATCH_TZ: "Europe/Budapest",
    REGWATCH_RATE_LIMIT: "100",
    REGWATCH_RETRY_BASE_MS: "20",
    REGWATCH_CONCURRENCY: "8",
    ...extra,
  };
}

export function emulatorConfig(emulator: RunningEmulator, extra: Record<string, string> = {}): Config {
  return loadConfig(emulatorEnv(emulator, extra));
}

/** One sync/backfill job in-process, at the emulator's simulated time. */
export function syncAt(
  sql: Sql,
  config: Config,
  emulator: RunningEmulator,
  options: SyncPassOptions = { kind: "sync" },
): Promise<SyncJobResult> {
  return runSyncJob({ sql, config, log: silentLogger, trigger: "cli", now: () => emulator.now() }, options);
}

/** Creates a list with history on the emulator through its admin route. */
export async function seedList(
  emulator: RunningEmulator,
  list: { name: string; createdAt: string; taxIds?: string[]; size?: number },
): Promise<void> {
  const response = await fetch(`${emulator.url}/_emulator/lists`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(list),
  });
  if (!response.ok) throw new Error(`seeding list failed: ${response.status} ${await response.text()}`);
}

/** Tax base numbers of watchable businesses (budget bodies cannot be watched) of the data set. */
export function sampleTaxIds(emulator: RunningEmulator, count: number): string[] {
  const ids = new Set<string>();
  for (const record of emulator.sampleBusinesses({ limit: count * 4 })) {
    if (record.type === "budget_orgs") continue;
    const taxNumber = String(record.tax_number ?? "");
    if (/^\d{8}/.test(taxNumber)) ids.add(taxNumber.slice(0, 8));
    if (ids.size === count) break;
  }
  return [...ids];
}

/**
 * Everything a sync writes, in a stable order and without timestamps or generated ids, so two
 * databases can be compared row by row.
 */
export async function snapshot(sql: Sql) {
  const [changes, sources, files, coverage, lists] = await Promise.all([
    sql`select tax_id, to_char(change_date, 'YYYY-MM-DD') as change_date, chapter, path, changed_headings, raw
        from regwatch.changes order by tax_id, change_date, chapter, path`,
    sql`select c.tax_id, to_char(c.change_date, 'YYYY-MM-DD') as change_date, c.chapter, c.path, s.list_key
        from regwatch.change_sources s join regwatch.changes c on c.id = s.change_id
        order by c.tax_id, c.change_date, c.chapter, c.path, s.list_key`,
    sql`select path, status, http_status, content_type, sha256, size_bytes, body_json
        from regwatch.change_files order by path`,
    sql`select list_key, to_char(start_date, 'YYYY-MM-DD') as start_date, to_char(end_date, 'YYYY-MM-DD') as end_date
        from regwatch.coverage order by list_key, start_date, end_date`,
    sql`select list_key, list_name, to_char(created_at, 'YYYY-MM-DD') as created_at from regwatch.watch_lists order by list_key`,
  ]);
  return {
    changes: [...changes],
    sources: [...sources],
    files: [...files],
    coverage: [...coverage],
    lists: [...lists],
  };
}

/** Covered days per list, merged, as "start..end" strings. */
export async function coveredRanges(sql: Sql): Promise<Record<string, string[]>> {
  const rows = await sql<{ list_key: string; start: string; end: string }[]>`
    with days as (
      select distinct list_key, d::date as day
      from regwatch.coverage, generate_series(start_date, end_date, interval '1 day') d
    ), grouped as (
      select list_key, day, day - (row_number() over (partition by list_key order by day))::int as grp from days
    )
    select list_key, to_char(min(day), 'YYYY-MM-DD') as start, to_char(max(day), 'YYYY-MM-DD') as end
    from grouped group by list_key, grp order by list_key, min(day)`;
  const result: Record<string, string[]> = {};
  for (const row of rows) {
    result[row.list_key] ??= [];
    result[row.list_key]!.push(`${row.start}..${row.end}`);
  }
  return result;
}

/** The most requests that arrived within any 1-second span. */
export function busiestSecond(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let max = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i]! - sorted[j]! >= 1000) j++;
    max = Math.max(max, i - j + 1);
  }
  return max;
}
