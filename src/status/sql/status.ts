/**
 * Read-only queries behind `regwatch status` and the daemon's metrics: coverage per list, runs,
 * change files, item outcomes and API usage. Each is one statement over small tables or an index.
 */
import type { Sql } from "../../db/connect.ts";
import { rowLimit } from "../../db/row-limit.ts";

export interface DayRange {
  start: string;
  end: string;
}

export interface ListCoverage {
  listKey: string;
  listName: string;
  createdAt: string | null;
  deleted: boolean;
  /** Covered intervals as stored (they may overlap), ordered by start. */
  intervals: DayRange[];
}

export async function coverageByList(sql: Sql): Promise<ListCoverage[]> {
  const rows = await sql<
    {
      list_key: string;
      list_name: string;
      created_at: string | null;
      deleted: boolean;
      intervals: DayRange[] | null;
    }[]
  >`
    select l.list_key, l.list_name, to_char(l.created_at, 'YYYY-MM-DD') as created_at,
           l.deleted_at is not null as deleted,
           (select json_agg(json_build_object('start', to_char(c.start_date, 'YYYY-MM-DD'),
                                              'end', to_char(c.end_date, 'YYYY-MM-DD'))
                            order by c.start_date, c.end_date)
            from ${sql.t.coverage} c where c.list_key = l.list_key) as intervals
    from ${sql.t.watch_lists} l
    order by l.deleted_at is not null, l.list_name, l.list_key`;
  return rows.map((r) => ({
    listKey: r.list_key,
    listName: r.list_name,
    createdAt: r.created_at,
    deleted: r.deleted,
    intervals: r.intervals ?? [],
  }));
}

/** Newest covered day of each list that still exists (lists never synced have none). */
export async function lastCoveredDays(
  sql: Sql,
): Promise<{ listKey: string; listName: string; lastCovered: string | null }[]> {
  return sql<{ listKey: string; listName: string; lastCovered: string | null }[]>`
    select l.list_key as "listKey", l.list_name as "listName",
           to_char(max(c.end_date), 'YYYY-MM-DD') as "lastCovered"
    from ${sql.t.watch_lists} l left join ${sql.t.coverage} c on c.list_key = l.list_key
    where l.deleted_at is null
    group by l.list_key, l.list_name`;
}

export interface RunRow {
  id: number;
  kind: string;
  trigger: string;
  status: string;
  startedAt: Date;
  finishedAt: Date | null;
  error: string | null;
  stats: Record<string, unknown>;
}

export async function recentRuns(sql: Sql, limit: number): Promise<RunRow[]> {
  const rows = await sql<RunRow[]>`
    select id, kind, trigger, status, started_at as "startedAt", finished_at as "finishedAt", error, stats
    from ${sql.t.runs} order by started_at desc, id desc ${rowLimit(sql, limit)}`;
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

export async function runCounts(sql: Sql): Promise<{ kind: string; status: string; count: number }[]> {
  return sql<{ kind: string; status: string; count: number }[]>`
    select kind, status, count(*)::int as count from ${sql.t.runs} group by kind, status order by kind, status`;
}

/** Per kind, when the newest run that ended ok or partial finished. */
export async function lastSuccessByKind(sql: Sql): Promise<{ kind: string; finishedAt: Date }[]> {
  return sql<{ kind: string; finishedAt: Date }[]>`
    select kind, max(finished_at) as "finishedAt" from ${sql.t.runs}
    where status in ('ok', 'partial') and finished_at is not null group by kind order by kind`;
}

export async function fileCounts(sql: Sql): Promise<Record<string, number>> {
  const rows = await sql<{ status: string; count: number }[]>`
    select case when failed_for_good then 'failedForGood' else status end as status, count(*)::int as count
    from ${sql.t.change_files} group by 1`;
  const counts: Record<string, number> = { pending: 0, fetched: 0, failed: 0, failedForGood: 0, refused: 0 };
  for (const row of rows) counts[row.status] = row.count;
  return counts;
}

export interface OpenFile {
  path: string;
  status: string;
  httpStatus: number | null;
  attempts: number;
  lastError: string | null;
}

/** Files still to fetch or given up on, most recently touched first (those failed for good apart: settledFiles). */
export async function openFiles(sql: Sql, limit: number): Promise<OpenFile[]> {
  return sql<OpenFile[]>`
    select path, status, http_status as "httpStatus", attempts, last_error as "lastError"
    from ${sql.t.change_files} where status in ('pending', 'failed', 'refused') and not failed_for_good
    order by updated_at desc ${rowLimit(sql, limit)}`;
}

/** Latest item outcomes counted by operation and code (null code: the registry accepted it). */
export async function outcomeCounts(sql: Sql): Promise<{ op: string; code: number | null; count: number }[]> {
  return sql<{ op: string; code: number | null; count: number }[]>`
    select op, code, count(*)::int as count from ${sql.t.item_outcomes}
    group by op, code order by op, code nulls first`;
}

export interface UsageRow {
  api: string;
  requests: number;
  errors: number;
}

/** Requests per interface on one day and in one calendar month (YYYY-MM). */
export async function usageSummary(
  sql: Sql,
  day: string,
  month: string,
): Promise<{ today: UsageRow[]; month: UsageRow[] }> {
  const rows = await sql<(UsageRow & { period: "today" | "month" })[]>`
    select 'today' as period, api, sum(requests)::int as requests, sum(errors)::int as errors
    from ${sql.t.api_usage} where day = ${day}::date group by api
    union all
    select 'month', api, sum(requests)::int, sum(errors)::int
    from ${sql.t.api_usage} where to_char(day, 'YYYY-MM') = ${month} group by api
    order by 1, 2`;
  const pick = (period: string) =>
    rows.filter((r) => r.period === period).map(({ api, requests, errors }) => ({ api, requests, errors }));
  return { today: pick("today"), month: pick("month") };
}

export interface OpenInvalidItem {
  listKey: string;
  windowStart: string;
  windowEnd: string;
  changeDate: string;
  taxId: string;
  reason: string;
}

/** Invalid items whose window is still uncovered: how many, and the newest few. */
export async function openInvalidItems(
  sql: Sql,
  limit: number,
): Promise<{ count: number; items: OpenInvalidItem[] }> {
  const [[counted], items] = await Promise.all([
    sql<{ n: number }[]>`
      select count(*)::int as n from ${sql.t.invalid_items} where resolved_at is null`,
    sql<OpenInvalidItem[]>`
      select list_key as "listKey", to_char(window_start, 'YYYY-MM-DD') as "windowStart",
             to_char(window_end, 'YYYY-MM-DD') as "windowEnd", change_date as "changeDate", tax_id as "taxId", reason
      from ${sql.t.invalid_items} where resolved_at is null
      order by seen_at desc, id desc ${rowLimit(sql, limit)}`,
  ]);
  return { count: counted?.n ?? 0, items };
}
