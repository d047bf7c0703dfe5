/**
 * Writing one answered changes window: its changes, their sources, pending file rows, the items
 * set aside as invalid and the coverage row, all in one transaction (a first read in one
 * statement), so a crash loses at most the window in flight and a rerun repeats it harmlessly.
 *
 * Rows travel as array parameters expanded by Postgres, not as a COPY: a failing COPY inside a
 * transaction left the client waiting forever, while a failing statement fails at once.
 */

import type { Interval } from "../../dates.ts";
import { nestedTextArrayLiteral, textArrayLiteral } from "../../db/array-literal.ts";
import type { Fragment, Sql, Tx } from "../../db/connect.ts";
import { isUniqueViolation } from "../../db/db-errors.ts";
import type { InvalidItemRow as InvalidItem, ReceivedChangeRow } from "../../db/rows.ts";
import { type RunLock, RunLockLostError } from "../../run/lock.ts";
import { type ChangeRow, distinctChanges, extrasColumn } from "./window-rows.ts";

export interface WindowWrite {
  listKey: string;
  runId: number | null;
  /** The interval that was asked. */
  requested: Interval;
  /** Days this answer makes covered (asked ∩ answered ∩ complete days); null when none. */
  covered: Interval | null;
  /** Items that passed validation, each with the object it was received as. */
  items: readonly ReceivedChangeRow[];
  invalid: readonly InvalidItem[];
  /** The run lock, checked inside each window's transaction: nothing is written once it is lost. */
  lock?: Pick<RunLock, "verify" | "heldSql">;
  /**
   * False to write even a first read the careful way: the caller saw this list's changes already
   * stored by another list (see WindowResult.metStored). Default true.
   */
  mayBeNew?: boolean;
}

export interface WindowResult {
  changes: number;
  newFiles: number;
  /** A first read met changes or files already stored and was written again the careful way. */
  metStored?: boolean;
}

/**
 * A list's first read of an interval takes its changes for new: one statement, committed on its
 * own, checks that no coverage of the list overlaps the interval and that the run lock is held,
 * and then writes the bookkeeping and inserts changes, sources and files plainly. That costs
 * Postgres about a quarter less than inserts that check each row for a conflict, and saves three
 * round trips of a transaction. When a change or file was stored after all (another list's window
 * sharing a business, an earlier answer that covered nothing), the unique index refuses it, the
 * statement rolls back whole, and the window is written the careful way. So are re-reads (the
 * statement writes nothing and says so), windows with invalid items, and every window of a list
 * the caller has seen share changes with another (`mayBeNew`).
 */
export async function writeWindow(sql: Sql, window: WindowWrite): Promise<WindowResult> {
  const rows = distinctChanges(window.items);
  if (rows.length > 0 && window.invalid.length === 0 && window.mayBeNew !== false) {
    let first: { firstRead: boolean; held: boolean; newFiles: number };
    try {
      first = await writeFirstRead(sql, window, rows);
    } catch (error) {
      if (!isUniqueViolation(error, TAKEN_FOR_NEW)) throw error;
      return { ...(await writeCarefully(sql, window, rows)), metStored: true };
    }
    if (!first.held) throw new RunLockLostError();
    if (first.firstRead) return { changes: rows.length, newFiles: first.newFiles };
  }
  return writeCarefully(sql, window, rows);
}

/** The unique indexes a first read's plain insert may run into. */
const TAKEN_FOR_NEW = ["changes_identity", "change_files_pkey"];

/** See writeWindow: everything a first read writes, in one statement, or nothing. */
async function writeFirstRead(
  sql: Sql,
  window: WindowWrite,
  rows: readonly ChangeRow[],
): Promise<{ firstRead: boolean; held: boolean; newFiles: number }> {
  const { listKey, requested } = window;
  const go = sql`(select first_read and held from guard)`;
  const [row] = await sql<{ first_read: boolean; held: boolean; new_files: number }[]>`
    with guard as (
      select not exists (
               select 1 from ${sql.t.coverage}
               where list_key = ${listKey} and start_date <= ${requested.end} and end_date >= ${requested.start}
             ) as first_read,
             ${window.lock ? window.lock.heldSql(sql) : sql`true`} as held
    ), ${commitMode(sql)}, ${closeInvalidItems(sql, window, go)}${upsertCoverage(sql, window, rows.length, go)},
    ins as (
      insert into ${sql.t.changes} (tax_id, change_date, chapter, path, changed_headings, raw)
      select r.t, r.d, r.c, r.p, r.h, r.e from (${changesInput(sql, rows)}) r
      where ${go}
      returning id, path, change_date
    ), sources as (
      insert into ${sql.t.change_sources} (change_id, list_key)
      select id, ${listKey} from ins
    ), files as (
      -- Every window inserts its files in one order (sorted here), so two cannot deadlock on them.
      insert into ${sql.t.change_files} (path, change_ids, newest_change)
      ${filesOf(sql)}
      returning 1
    )
    select g.first_read, g.held, (select count(*) from files)::int as new_files
    from guard g, commit_mode`;
  return { firstRead: row?.first_read ?? false, held: row?.held ?? false, newFiles: row?.new_files ?? 0 };
}

/**
 * The file rows of the changes just inserted (`ins`): each path with its changes and the day of
 * the newest, in path order.
 */
function filesOf(q: Sql | Tx): Fragment {
  return q`select path, array_agg(id order by id) as ids, max(change_date) as newest
      from ins group by path order by path`;
}

/** A window in a transaction whose every insert steps around what is stored already. */
function writeCarefully(sql: Sql, window: WindowWrite, rows: readonly ChangeRow[]): Promise<WindowResult> {
  return sql.begin(async (tx) => {
    await windowBookkeeping(tx, window, rows.length);
    const result =
      rows.length > 0 ? await writeChanges(tx, window.listKey, rows) : { changes: 0, newFiles: 0 };
    if (window.invalid.length > 0) await recordInvalidItems(tx, window);
    if (window.lock) await window.lock.verify(tx);
    return result;
  });
}

/**
 * The window's rows as one relation, in key order: each column travels as one array literal, much
 * cheaper to build than the driver's escaping of every element. The extra fields travel as their
 * distinct JSON texts (items of one window mostly share them) and one index per row: a fraction of
 * the bytes, and Postgres parses each text once. (One JSON document for all of them was tried:
 * quicker to build, slower for Postgres to take apart.)
 */
function changesInput(q: Sql | Tx, rows: readonly ChangeRow[]) {
  const extras = extrasColumn(rows);
  return q`
    select u.t, u.d::date as d, u.c, u.p, u.h::text[] as h, (select ${textArrayLiteral(extras.texts)}::text[]::jsonb[])[u.x] as e
    from unnest(${textArrayLiteral(rows.map((r) => r.t))}::text[], ${textArrayLiteral(rows.map((r) => r.d))}::text[],
                ${textArrayLiteral(rows.map((r) => r.c))}::text[], ${textArrayLiteral(rows.map((r) => r.p))}::text[],
                ${nestedTextArrayLiteral(rows.map((r) => r.h))}::text[], ${extras.index}::int[])
         with ordinality as u(t, d, c, p, h, x, n)
    order by u.n`;
}

/**
 * New changes go in with one statement: rows travel as parallel arrays, one per column, which
 * Postgres reads about three times faster than the same rows as one JSON document; they are
 * inserted in key order with their sources and file rows, and a change already stored is
 * skipped there without a write or a lock. Only when some were stored already (a re-read: the
 * daily lookback, a refetch, a change two lists share) does a second statement look them up: it
 * updates those whose headings or extra fields differ and adds this list's source where missing.
 * A re-read that brings nothing new writes no row version. Rows are written in one key order
 * everywhere, so two windows sharing changes cannot deadlock on their inserts (a rare deadlock
 * between updates is retried by the caller).
 */
async function writeChanges(tx: Tx, listKey: string, rows: readonly ChangeRow[]): Promise<WindowResult> {
  const input = changesInput(tx, rows);
  const [first] = await tx<{ inserted: number; new_files: number }[]>`
    with ins as (
      insert into ${tx.t.changes} (tax_id, change_date, chapter, path, changed_headings, raw)
      select r.t, r.d, r.c, r.p, r.h, r.e from (${input}) r
      on conflict (tax_id, change_date, chapter, path) do nothing
      returning id, path, change_date
    ), sources as (
      insert into ${tx.t.change_sources} (change_id, list_key)
      select id, ${listKey} from ins
    ), linked as (
      ${filesOf(tx)}
    ), files as (
      -- A file stored before (another change points to it) gains the new changes, and is
      -- parsed again if it was, so that they get its values too. ON CONFLICT also finds a file
      -- another window committed after this statement began.
      insert into ${tx.t.change_files} as f (path, change_ids, newest_change)
      select path, ids, newest from linked order by path
      on conflict (path) do update
        set change_ids = f.change_ids || excluded.change_ids,
            newest_change = greatest(f.newest_change, excluded.newest_change),
            parse_status = null
      returning f.path, f.change_ids
    )
    select (select count(*) from ins)::int as inserted,
           -- A stored file already held a change, so only a new file holds exactly this window's.
           (select count(*) from files join linked l using (path) where files.change_ids = l.ids)::int as new_files`;
  const newFiles = first?.new_files ?? 0;
  if ((first?.inserted ?? 0) < rows.length) {
    // Every row not inserted above is now stored and committed (an insert it met in progress
    // was waited for), so this statement's snapshot finds each one.
    await tx`
      with input as (${input}), known as (
        -- One index probe per row (a plain join may be planned as a scan of the whole table).
        select s.id, i.h, i.e, s.changed_headings = i.h and s.raw = i.e as same
        from input i
        cross join lateral (
          select t.id, t.changed_headings, t.raw from ${tx.t.changes} t
          where t.tax_id = i.t and t.change_date = i.d and t.chapter = i.c and t.path = i.p
          limit 1
        ) s
      ), up as (
        update ${tx.t.changes} c
        set changed_headings = k.h, raw = k.e, last_seen_at = now()
        from known k
        where c.id = k.id and not k.same
      )
      insert into ${tx.t.change_sources} (change_id, list_key)
      select id, ${listKey} from known order by id
      on conflict do nothing`;
  }
  return { changes: rows.length, newFiles };
}

/**
 * One statement for what every window does besides its changes:
 * - commits without waiting for the WAL flush (commitMode);
 * - closes the invalid items still open for the asked interval (the newest answer's own invalid
 *   items, if any, are added after it: what is open afterwards is exactly what that answer held);
 * - records the coverage row, where a re-read leaves its trace: when the interval was last read
 *   and by which run (the changes it brought are written only when they differ from what is stored).
 */
async function windowBookkeeping(tx: Tx, window: WindowWrite, changeCount: number): Promise<void> {
  const always = tx`true`;
  await tx`
    with ${commitMode(tx)}, ${closeInvalidItems(tx, window, always)}${upsertCoverage(tx, window, changeCount, always)}
    select 1 from commit_mode`;
}

/**
 * A window is atomic and repeatable, so it commits without waiting for the WAL flush: if an OS
 * crash loses the last commits, their coverage goes with their changes and the next sync reads
 * them again, and not waiting keeps the write path at disk bandwidth instead of disk latency.
 */
function commitMode(q: Sql | Tx): Fragment {
  return q`commit_mode as (select set_config('synchronous_commit', 'off', true))`;
}

function closeInvalidItems(q: Sql | Tx, window: WindowWrite, when: Fragment): Fragment {
  const { listKey, requested } = window;
  return q`closed as (
      update ${q.t.invalid_items} set resolved_at = now(), resolution = 'answered again'
      where list_key = ${listKey} and resolved_at is null
        and window_start >= ${requested.start} and window_end <= ${requested.end} and ${when}
    )`;
}

/** The coverage row (with a leading comma), or nothing when the answer covered no day. */
function upsertCoverage(q: Sql | Tx, window: WindowWrite, changeCount: number, when: Fragment): Fragment {
  const { listKey, requested, covered } = window;
  if (!covered) return q``;
  return q`, coverage as (
      insert into ${q.t.coverage} (list_key, start_date, end_date, requested_start, requested_end, change_count, run_id)
      select ${listKey}, ${covered.start}::date, ${covered.end}::date, ${requested.start}::date, ${requested.end}::date,
             ${changeCount}::int, ${window.runId}::bigint
      where ${when}
      on conflict (list_key, start_date, end_date) do update
        set change_count = excluded.change_count, run_id = excluded.run_id, fetched_at = now(),
            requested_start = excluded.requested_start, requested_end = excluded.requested_end,
            accepted_reason = null
    )`;
}

/** The answer's invalid items, set aside with their reasons (after `windowBookkeeping`). */
async function recordInvalidItems(tx: Tx, window: WindowWrite): Promise<void> {
  const { listKey, requested } = window;
  const rows = window.invalid.map((i) => ({
    change_date: i.changeDate,
    tax_id: i.taxId,
    reason: i.reason,
    // JSON text escapes NUL and lone surrogates, so every invalid item can be kept as text.
    item: JSON.stringify(i.raw),
  }));
  await tx`
    insert into ${tx.t.invalid_items} (list_key, window_start, window_end, change_date, tax_id, reason, item, run_id)
    select ${listKey}, ${requested.start}, ${requested.end}, r.change_date, r.tax_id, r.reason, r.item, ${window.runId}
    from jsonb_to_recordset(${JSON.stringify(rows)}::text::jsonb) as r(change_date text, tax_id text, reason text, item text)`;
}
