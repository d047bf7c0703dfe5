/**
 * Reads of one account's schema for the fleet's views (`status --fleet`, the daemon's metrics and
 * its scheduler), each made in a read-only transaction whose statements name that account's schema
 * (scoped-sql.ts), on a connection the caller already holds (no new session per account).
 */
import type { Sql } from "../../db/connect.ts";
import { scopedTx } from "../../db/scoped-sql.ts";

/**
 * Runs `body` in a read-only transaction seen as `schema`'s (its `t` names that schema). The
 * statements of src/db/ take an `Sql`; the transaction's handle runs them the same way.
 */
export async function withAccountSchema<T>(
  sql: Sql,
  schema: string,
  body: (sql: Sql) => Promise<T>,
): Promise<T> {
  const result = await sql.begin("read only", async (tx) => [
    await body(scopedTx(tx, schema) as unknown as Sql),
  ]);
  return result[0] as T;
}

/** True when the schema exists and holds the runs table (its migrations have been applied). */
export async function accountSchemaReady(sql: Sql, schema: string): Promise<boolean> {
  const [row] = await sql<{ ready: boolean }[]>`
    select to_regclass(${`"${schema}".runs`}) is not null as ready`;
  return row?.ready === true;
}

export interface AccountRunSummary {
  kind: string;
  trigger: string;
  status: string;
  startedAt: Date;
  finishedAt: Date | null;
}

export interface AccountSummary {
  /** The newest run of any kind (a running one included). */
  lastRun: AccountRunSummary | null;
  /** The newest run that ended, for the metrics' last-run time and status. */
  lastFinished: AccountRunSummary | null;
  /**
   * The oldest of the live lists' last covered days: every list is covered up to here. Null when
   * no list has been covered yet.
   */
  coverageEnd: string | null;
  /** Live lists with no covered day at all. */
  listsUncovered: number;
  lists: number;
  /** Change files still to fetch or given up on (pending, failed, refused). */
  openFiles: number;
}

/** What `status --fleet` and the metrics show of one account; run inside withAccountSchema. */
export async function accountSummary(sql: Sql): Promise<AccountSummary> {
  const runColumns = sql`kind, trigger, status, started_at as "startedAt", finished_at as "finishedAt"`;
  const [last, finished, coverage, files] = await Promise.all([
    sql<
      AccountRunSummary[]
    >`select ${runColumns} from ${sql.t.runs} order by started_at desc, id desc limit 1`,
    sql<AccountRunSummary[]>`
      select ${runColumns} from ${sql.t.runs} where finished_at is not null
      order by finished_at desc, id desc limit 1`,
    sql<{ coverage_end: string | null; lists: number; uncovered: number }[]>`
      select to_char(min(last_day), 'YYYY-MM-DD') as coverage_end, count(*)::int as lists,
             count(*) filter (where last_day is null)::int as uncovered
      from (select l.list_key, max(c.end_date) as last_day
            from ${sql.t.watch_lists} l left join ${sql.t.coverage} c on c.list_key = l.list_key
            where l.deleted_at is null group by l.list_key) per_list`,
    sql<{ open: number }[]>`
      select count(*)::int as open from ${sql.t.change_files}
      where status in ('pending', 'failed', 'refused') and not failed_for_good`,
  ]);
  return {
    lastRun: last[0] ?? null,
    lastFinished: finished[0] ?? null,
    coverageEnd: coverage[0]?.coverage_end ?? null,
    listsUncovered: coverage[0]?.uncovered ?? 0,
    lists: coverage[0]?.lists ?? 0,
    openFiles: files[0]?.open ?? 0,
  };
}

/**
 * True when the account has an alert message a delivery pass would send now: pending, its backoff
 * over (on the scheduler's clock, as it was set), and not leased by a deliverer (on the database's
 * clock, as leases are). One indexed look, for the scheduler's `deliver` jobs.
 */
export async function deliveriesDue(sql: Sql, now: Date): Promise<boolean> {
  const [row] = await sql<{ due: boolean }[]>`
    select exists (
      select 1 from ${sql.t.alert_deliveries}
      where status = 'pending' and next_attempt_at <= ${now}
        and (lease_until is null or lease_until <= now())) as due`;
  return row?.due === true;
}

/** True when the job queue's schema (graphile-worker's) has been installed in this database. */
export async function queueSchemaInstalled(sql: Sql): Promise<boolean> {
  const [row] = await sql<{ installed: boolean }[]>`
    select to_regclass('graphile_worker.jobs') is not null as installed`;
  return row?.installed === true;
}
