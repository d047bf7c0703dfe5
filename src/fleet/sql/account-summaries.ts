/**
 * What `status --fleet` and the daemon's metrics show of each account, read for many accounts in
 * few statements: one finds the schemas that are migrated, then one statement per CHUNK accounts
 * reads their last runs, coverage, open files and key refusals together (each account's part
 * names its own schema; the statement's one snapshot covers them all), two statements at once. A
 * thousand accounts are a hundred statements, where a transaction per account took about eleven
 * thousand round trips. What remains is the server opening each account's tables and indexes
 * (several thousand catalog entries a fresh connection loads once). A chunk
 * the server refuses (one schema broken, say) is read again account by account, so the error is
 * that account's alone.
 */
import type { Fragment, Sql } from "../../db/connect.ts";
import { type KeyRefusalRow, refusalColumns } from "./key-refusals.ts";

/**
 * Accounts per statement. Planning a UNION grows faster than its branches (100 accounts a
 * statement took 6 ms an account with every catalog entry cached, 10 took 1.2 ms), while each
 * statement is a round trip: ten is near the best of both.
 */
const CHUNK = 10;
/** Statements at once, on as many of the caller's connections (status --fleet holds two). */
const LANES = 2;

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
  /** Every recorded refusal of the account's keys, newest first (none before migration 0030). */
  refusals: KeyRefusalRow[];
}

/** An account's summary, or why its tables could not be read; absent from the map: not migrated. */
export type SummaryOrError = { summary: AccountSummary } | { error: string };

interface SummaryRow {
  schema: string;
  last_run: RunJson | null;
  last_finished: RunJson | null;
  coverage_end: string | null;
  lists: number;
  uncovered: number;
  open_files: number;
  refusals: (Omit<KeyRefusalRow, "refusedAt"> & { refusedAt: string })[];
}

type RunJson = Omit<AccountRunSummary, "startedAt" | "finishedAt"> & {
  startedAt: string;
  finishedAt: string | null;
};

/** The summaries of the migrated ones among `schemas`, by schema. */
export async function accountSummaries(
  sql: Sql,
  schemas: readonly string[],
): Promise<Map<string, SummaryOrError>> {
  const tables = await sql<{ schema: string; refusals: boolean }[]>`
    select s as schema, to_regclass(format('%I.key_refusals', s)) is not null as refusals
    from json_array_elements_text(${JSON.stringify(schemas)}::text::json) s
    where to_regclass(format('%I.runs', s)) is not null`;
  const found = new Map<string, SummaryOrError>();
  const chunks: (typeof tables)[number][][] = [];
  for (let i = 0; i < tables.length; i += CHUNK) chunks.push(tables.slice(i, i + CHUNK));
  let next = 0;
  const lane = async () => {
    while (next < chunks.length) await readInto(chunks[next++]!);
  };
  const readInto = async (chunk: (typeof tables)[number][]) => {
    const rows = await readChunk(sql, chunk).catch(async () => {
      const alone: SummaryRow[] = [];
      for (const one of chunk)
        await readChunk(sql, [one]).then(
          (r) => alone.push(...r),
          (error: Error) => found.set(one.schema, { error: error.message }),
        );
      return alone;
    });
    for (const row of rows) found.set(row.schema, { summary: summaryOf(row) });
  };
  await Promise.all(Array.from({ length: LANES }, lane));
  return found;
}

function readChunk(sql: Sql, chunk: readonly { schema: string; refusals: boolean }[]): Promise<SummaryRow[]> {
  const parts = chunk.map(({ schema, refusals }) => accountPart(sql, schema, refusals));
  const union = parts.reduce((all, part) => sql`${all} union all ${part}`);
  return sql<SummaryRow[]>`${union}`.then((rows) => [...rows]);
}

function accountPart(sql: Sql, schema: string, hasRefusals: boolean): Fragment {
  const s = sql(schema);
  const run = sql`kind, trigger, status, started_at as "startedAt", finished_at as "finishedAt"`;
  const refusals = hasRefusals
    ? sql`(select coalesce(json_agg(k order by k."refusedAt" desc), '[]'::json)
           from (select ${refusalColumns(sql)} from ${s}.key_refusals) k)`
    : sql`'[]'::json`;
  return sql`(select ${schema}::text as schema,
    (select row_to_json(r) from (select ${run} from ${s}.runs order by started_at desc, id desc limit 1) r) as last_run,
    (select row_to_json(r) from (select ${run} from ${s}.runs where finished_at is not null
                                 order by finished_at desc, id desc limit 1) r) as last_finished,
    cov.coverage_end, cov.lists, cov.uncovered,
    (select count(*)::int from ${s}.change_files
     where status in ('pending', 'failed', 'refused') and not failed_for_good) as open_files,
    ${refusals} as refusals
    from (select to_char(min(last_day), 'YYYY-MM-DD') as coverage_end, count(*)::int as lists,
                 count(*) filter (where last_day is null)::int as uncovered
          from (select l.list_key, max(c.end_date) as last_day
                from ${s}.watch_lists l left join ${s}.coverage c on c.list_key = l.list_key
                where l.deleted_at is null group by l.list_key) per_list) cov)`;
}

function runOf(json: RunJson | null): AccountRunSummary | null {
  if (json === null) return null;
  return {
    ...json,
    startedAt: new Date(json.startedAt),
    finishedAt: json.finishedAt === null ? null : new Date(json.finishedAt),
  };
}

function summaryOf(row: SummaryRow): AccountSummary {
  return {
    lastRun: runOf(row.last_run),
    lastFinished: runOf(row.last_finished),
    coverageEnd: row.coverage_end,
    listsUncovered: row.uncovered,
    lists: row.lists,
    openFiles: row.open_files,
    refusals: row.refusals.map((r) => ({ ...r, refusedAt: new Date(r.refusedAt) })),
  };
}
