/**
 * Writing one answered changes window: its changes, their sources, pending file rows, the items
 * set aside as invalid and the coverage row, all in one transaction, so a crash loses at most the
 * window in flight and a rerun repeats it harmlessly (every statement is an idempotent upsert).
 *
 * Rows travel as array parameters expanded by Postgres, not as a COPY: a failing COPY inside a
 * transaction left the client waiting forever, while a failing statement fails at once.
 */

import type { Interval } from "../dates.ts";
import { nestedTextArrayLiteral, textArrayLiteral } from "./array-literal.ts";
import type { Sql, Tx } from "./connect.ts";
import { isUniqueViolation } from "./db-errors.ts";
import type {
  ChangeItemRow as ChangedItem,
  InvalidItemRow as InvalidItem,
  ReceivedChangeRow,
} from "./rows.ts";

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
  /** Throws when the run lock is no longer held; called inside the transaction, before commit. */
  verifyLock?: (tx: Tx) => Promise<void>;
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
 * A list's first read of an interval takes its changes for new and inserts them plainly, which
 * costs Postgres about a third less than an insert that checks each row for a conflict first.
 * When one was stored after all (another list's window sharing a business, an earlier answer that
 * covered nothing), the unique index refuses it, the transaction rolls back whole, and the window
 * is written again the careful way. Re-reads are written the careful way from the start, and so
 * is every window of a list the caller has seen share changes with another (`mayBeNew`).
 */
export async function writeWindow(sql: Sql, window: WindowWrite): Promise<WindowResult> {
  const rows = distinctChanges(window);
  let assumedNew = false;
  try {
    return await sql.begin(async (tx) => {
      const firstRead = await windowBookkeeping(tx, window, rows.length);
      assumedNew = firstRead && rows.length > 0 && window.mayBeNew !== false;
      return finishWindow(tx, window, rows, assumedNew);
    });
  } catch (error) {
    if (!assumedNew || !isUniqueViolation(error, TAKEN_FOR_NEW)) throw error;
    const written = await sql.begin(async (tx) => {
      await windowBookkeeping(tx, window, rows.length);
      return finishWindow(tx, window, rows, false);
    });
    return { ...written, metStored: true };
  }
}

/** The unique indexes a first read's plain insert may run into. */
const TAKEN_FOR_NEW = ["changes_identity", "change_files_pkey"];

async function finishWindow(
  tx: Tx,
  window: WindowWrite,
  rows: readonly ChangeRow[],
  assumeNew: boolean,
): Promise<WindowResult> {
  let result: WindowResult = { changes: 0, newFiles: 0 };
  if (assumeNew) result = await insertNewChanges(tx, window.listKey, rows);
  else if (rows.length > 0) result = await writeChanges(tx, window.listKey, rows);
  if (window.invalid.length > 0) await recordInvalidItems(tx, window);
  if (window.verifyLock) await window.verifyLock(tx);
  return result;
}

/**
 * The window's rows as one relation, in key order: each column travels as one array literal, much
 * cheaper to build than the driver's escaping of every element (one JSON document for all the
 * extra fields was tried: quicker to build, slower for Postgres to take apart).
 */
function changesInput(tx: Tx, rows: readonly ChangeRow[]) {
  return tx`
    select u.t, u.d::date as d, u.c, u.p, u.h::text[] as h, u.e::jsonb as e
    from unnest(${textArrayLiteral(rows.map((r) => r.t))}::text[], ${textArrayLiteral(rows.map((r) => r.d))}::text[],
                ${textArrayLiteral(rows.map((r) => r.c))}::text[], ${textArrayLiteral(rows.map((r) => r.p))}::text[],
                ${nestedTextArrayLiteral(rows.map((r) => r.h))}::text[],
                ${textArrayLiteral(rows.map((r) => JSON.stringify(r.e)))}::text[])
         with ordinality as u(t, d, c, p, h, e, n)
    order by u.n`;
}

/**
 * A first read's changes, their sources and their files, inserted without looking for
 * conflicts (see writeWindow): changes first, then files, as in writeChanges, so windows of both
 * kinds take their row locks in one order.
 */
async function insertNewChanges(tx: Tx, listKey: string, rows: readonly ChangeRow[]): Promise<WindowResult> {
  const [first] = await tx<{ new_files: number }[]>`
    with ins as (
      insert into regwatch.changes (tax_id, change_date, chapter, path, changed_headings, raw)
      select r.t, r.d, r.c, r.p, r.h, r.e from (${changesInput(tx, rows)}) r
      returning id, path
    ), sources as (
      insert into regwatch.change_sources (change_id, list_key)
      select id, ${listKey} from ins
    ), files as (
      -- Every window inserts its files in one order (sorted here), so two cannot deadlock on them.
      insert into regwatch.change_files (path)
      select distinct path from ins order by path
      returning 1
    )
    select (select count(*) from ins)::int as inserted, (select count(*) from files)::int as new_files`;
  return { changes: rows.length, newFiles: first?.new_files ?? 0 };
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
    with input as materialized (${input}), ins as (
      insert into regwatch.changes (tax_id, change_date, chapter, path, changed_headings, raw)
      select r.t, r.d, r.c, r.p, r.h, r.e from input r
      on conflict (tax_id, change_date, chapter, path) do nothing
      returning id
    ), sources as (
      insert into regwatch.change_sources (change_id, list_key)
      select id, ${listKey} from ins
    ), files as (
      insert into regwatch.change_files (path)
      select distinct p from input order by p
      on conflict (path) do nothing
      returning path
    )
    select (select count(*) from ins)::int as inserted, (select count(*) from files)::int as new_files`;
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
          select t.id, t.changed_headings, t.raw from regwatch.changes t
          where t.tax_id = i.t and t.change_date = i.d and t.chapter = i.c and t.path = i.p
          limit 1
        ) s
      ), up as (
        update regwatch.changes c
        set changed_headings = k.h, raw = k.e, last_seen_at = now()
        from known k
        where c.id = k.id and not k.same
      )
      insert into regwatch.change_sources (change_id, list_key)
      select id, ${listKey} from known order by id
      on conflict do nothing`;
  }
  return { changes: rows.length, newFiles };
}

/**
 * One statement for what every window does besides its changes:
 * - commits without waiting for the WAL flush: a window is atomic and repeatable, so if an OS
 *   crash loses the last commits, their coverage goes with their changes and the next sync reads
 *   them again, and not waiting keeps the write path at disk bandwidth instead of disk latency;
 * - closes the invalid items still open for the asked interval (the newest answer's own invalid
 *   items, if any, are added after it: what is open afterwards is exactly what that answer held);
 * - records the coverage row, where a re-read leaves its trace: when the interval was last read
 *   and by which run (the changes it brought are written only when they differ from what is stored);
 * - tells whether this is the list's first read of any day of the interval (no coverage of it
 *   before this statement), when its changes are most likely new.
 */
async function windowBookkeeping(tx: Tx, window: WindowWrite, changeCount: number): Promise<boolean> {
  const { listKey, requested, covered } = window;
  const coverage = covered
    ? tx`, coverage as (
        insert into regwatch.coverage (list_key, start_date, end_date, requested_start, requested_end, change_count, run_id)
        values (${listKey}, ${covered.start}, ${covered.end}, ${requested.start}, ${requested.end}, ${changeCount}, ${window.runId})
        on conflict (list_key, start_date, end_date) do update
          set change_count = excluded.change_count, run_id = excluded.run_id, fetched_at = now(),
              requested_start = excluded.requested_start, requested_end = excluded.requested_end,
              accepted_reason = null
      )`
    : tx``;
  const [row] = await tx<{ first_read: boolean }[]>`
    with commit_mode as (select set_config('synchronous_commit', 'off', true)),
    closed as (
      update regwatch.invalid_items set resolved_at = now(), resolution = 'answered again'
      where list_key = ${listKey} and resolved_at is null
        and window_start >= ${requested.start} and window_end <= ${requested.end}
    )${coverage}
    select not exists (
      select 1 from regwatch.coverage
      where list_key = ${listKey} and start_date <= ${requested.end} and end_date >= ${requested.start}
    ) as first_read
    from commit_mode`;
  return row?.first_read ?? false;
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
    insert into regwatch.invalid_items (list_key, window_start, window_end, change_date, tax_id, reason, item, run_id)
    select ${listKey}, ${requested.start}, ${requested.end}, r.change_date, r.tax_id, r.reason, r.item, ${window.runId}
    from jsonb_to_recordset(${JSON.stringify(rows)}::text::jsonb) as r(change_date text, tax_id text, reason text, item text)`;
}

/** One change as sent to Postgres. */
interface ChangeRow {
  t: string;
  d: string;
  c: string;
  p: string;
  h: readonly string[];
  /** What `raw` keeps: the item's fields the typed columns do not hold. */
  e: Record<string, unknown>;
}

/**
 * One row per change identity (the registry may repeat an item inside one answer), in key order
 * (code-unit order of the joined key; NUL cannot occur in checked items). Every window writes its
 * rows in this one order, so two windows sharing changes cannot deadlock.
 */
function distinctChanges(window: WindowWrite): ChangeRow[] {
  const rows = window.items.map(({ item, raw }) => ({
    t: item.tax_id,
    d: item.change,
    c: item.chapter,
    p: item.path,
    h: item.changed_headings,
    e: extraFields(item, raw),
  }));
  // Stable: of rows with the same identity, the one received last ends the run and is kept.
  rows.sort(byIdentity);
  return rows.filter((row, i) => i === rows.length - 1 || byIdentity(row, rows[i + 1]!) !== 0);
}

/** Field by field in code-unit order: the order of the joined key with NUL separators. */
function byIdentity(a: ChangeRow, b: ChangeRow): number {
  return compare(a.t, b.t) || compare(a.d, b.d) || compare(a.c, b.c) || compare(a.p, b.p);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The fields of an item as received that its typed columns do not hold: unknown fields, and a
 * known one only when its received form differs from the typed value (a numeric chapter, null
 * headings). The typed columns merged with these give back the item (`v_changes.raw`).
 */
export function extraFields(
  item: ChangedItem,
  received: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const extra: Record<string, unknown> = {};
  if (!received) return extra;
  for (const field in received) {
    const value = received[field];
    switch (field) {
      case "change":
      case "tax_id":
      case "chapter":
      case "path":
        if (value !== item[field]) extra[field] = value;
        break;
      case "changed_headings":
        if (!sameStrings(value, item.changed_headings)) extra[field] = value;
        break;
      default:
        extra[field] = value;
    }
  }
  return extra;
}

function sameStrings(value: unknown, typed: readonly string[]): boolean {
  if (!Array.isArray(value) || value.length !== typed.length) return false;
  return value.every((v, i) => v === typed[i]);
}
