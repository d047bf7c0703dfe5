/**
 * Writing one answered changes window: its changes, their sources, pending file rows, the items
 * set aside as invalid and the coverage row, all in one transaction, so a crash loses at most the
 * window in flight and a rerun repeats it harmlessly (every statement is an idempotent upsert).
 *
 * Rows travel as one JSON text parameter expanded by Postgres, not as a COPY: a failing COPY
 * inside a transaction left the client waiting forever, while a failing statement fails at once.
 */

import type { Interval } from "../dates.ts";
import type { Sql, Tx } from "./connect.ts";
import type { ChangeItemRow as ChangedItem, InvalidItemRow as InvalidItem } from "./rows.ts";

export interface WindowWrite {
  listKey: string;
  runId: number | null;
  /** The interval that was asked. */
  requested: Interval;
  /** Days this answer makes covered (asked ∩ answered ∩ complete days); null when none. */
  covered: Interval | null;
  /** Items that passed validation, and each one as received. */
  items: readonly ChangedItem[];
  raw: readonly Record<string, unknown>[];
  invalid: readonly InvalidItem[];
  /** Throws when the run lock is no longer held; called inside the transaction, before commit. */
  verifyLock?: (tx: Tx) => Promise<void>;
}

export interface WindowResult {
  changes: number;
  newFiles: number;
}

export async function writeWindow(sql: Sql, window: WindowWrite): Promise<WindowResult> {
  const rows = distinctChanges(window);
  return sql.begin(async (tx) => {
    // A window is atomic and repeatable: if an OS crash loses the last commits, their coverage
    // goes with their changes and the next sync reads them again. Not waiting for the WAL flush
    // of every window keeps the write path at disk bandwidth instead of disk latency.
    await tx`set local synchronous_commit = off`;
    let result: WindowResult = { changes: 0, newFiles: 0 };
    if (rows.length > 0) {
      // Rows are inserted in key order, so two windows sharing changes lock them in the same
      // order and cannot deadlock each other.
      const [row] = await tx<{ changes: number; new_files: number }[]>`
        with input as (
          select r.tax_id, r.change_date, r.chapter, r.path,
                 array(select jsonb_array_elements_text(r.headings)) as changed_headings, r.raw
          from jsonb_to_recordset(${JSON.stringify(rows)}::text::jsonb)
            as r(tax_id text, change_date date, chapter text, path text, headings jsonb, raw jsonb)
          order by r.tax_id, r.change_date, r.chapter, r.path
        ), up as (
          insert into regwatch.changes as c (tax_id, change_date, chapter, path, changed_headings, raw)
          select tax_id, change_date, chapter, path, changed_headings, raw from input
          on conflict (tax_id, change_date, chapter, path) do update
            set changed_headings = excluded.changed_headings, raw = excluded.raw, last_seen_at = now()
          returning c.id, c.path
        ), sources as (
          insert into regwatch.change_sources (change_id, list_key)
          select id, ${window.listKey} from up order by id
          on conflict do nothing
        ), files as (
          insert into regwatch.change_files (path)
          select distinct path from up order by path
          on conflict (path) do nothing
          returning path
        )
        select (select count(*) from up)::int as changes, (select count(*) from files)::int as new_files`;
      result = { changes: row?.changes ?? 0, newFiles: row?.new_files ?? 0 };
    }
    await recordInvalidItems(tx, window);
    if (window.covered) {
      await tx`
        insert into regwatch.coverage (list_key, start_date, end_date, requested_start, requested_end, change_count, run_id)
        values (${window.listKey}, ${window.covered.start}, ${window.covered.end}, ${window.requested.start},
                ${window.requested.end}, ${result.changes}, ${window.runId})
        on conflict (list_key, start_date, end_date) do update
          set change_count = excluded.change_count, run_id = excluded.run_id, fetched_at = now(),
              requested_start = excluded.requested_start, requested_end = excluded.requested_end,
              accepted_reason = null`;
    }
    if (window.verifyLock) await window.verifyLock(tx);
    return result;
  });
}

/**
 * Invalid items replace the open ones of the same asked interval; a clean answer closes them.
 * Either way what is open afterwards is exactly what the newest answer held.
 */
async function recordInvalidItems(tx: Tx, window: WindowWrite): Promise<void> {
  const { listKey, requested } = window;
  await tx`
    update regwatch.invalid_items set resolved_at = now(), resolution = 'answered again'
    where list_key = ${listKey} and resolved_at is null
      and window_start >= ${requested.start} and window_end <= ${requested.end}`;
  if (window.invalid.length === 0) return;
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

/** One row per change identity (the registry may repeat an item inside one answer), in key order. */
function distinctChanges(window: WindowWrite) {
  const seen = new Map<
    string,
    { tax_id: string; change_date: string; chapter: string; path: string; headings: string[]; raw: unknown }
  >();
  window.items.forEach((item, index) => {
    const key = JSON.stringify([item.tax_id, item.change, item.chapter, item.path]);
    seen.set(key, {
      tax_id: item.tax_id,
      change_date: item.change,
      chapter: item.chapter,
      path: item.path,
      headings: item.changed_headings,
      raw: window.raw[index] ?? item,
    });
  });
  return [...seen.values()].sort(
    (a, b) =>
      compare(a.tax_id, b.tax_id) ||
      compare(a.change_date, b.change_date) ||
      compare(a.chapter, b.chapter) ||
      compare(a.path, b.path),
  );
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
