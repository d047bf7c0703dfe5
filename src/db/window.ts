/**
 * Writing one answered changes window: its changes, their sources, pending file rows and the
 * coverage row, all in one transaction, so a crash loses at most the window in flight and a
 * rerun repeats it harmlessly (every statement is an idempotent upsert).
 */
import { finished } from "node:stream/promises";
import type { ChangedItem } from "../api/watch-schemas.ts";
import type { Sql } from "./connect.ts";

export interface WindowWrite {
  listKey: string;
  runId: number | null;
  requested: { start: string; end: string };
  /** The interval the server said it returned. */
  returned: { start: string; end: string };
  items: readonly ChangedItem[];
  raw: readonly Record<string, unknown>[];
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
      // COPY into a session-local stage is the cheapest way to hand a batch to the server;
      // one statement then upserts the changes and derives their sources and file rows.
      await tx`
        create temp table if not exists regwatch_stage (
          tax_id text, change_date date, chapter text, path text, changed_headings text[], raw jsonb
        ) on commit delete rows`;
      const copy = await tx`copy regwatch_stage from stdin`.writable();
      copy.end(rows.map(copyLine).join(""));
      await finished(copy);
      const [row] = await tx<{ changes: number; new_files: number }[]>`
        with up as (
          insert into regwatch.changes as c (tax_id, change_date, chapter, path, changed_headings, raw)
          select tax_id, change_date, chapter, path, changed_headings, raw from regwatch_stage
          on conflict (tax_id, change_date, chapter, path) do update
            set changed_headings = excluded.changed_headings, raw = excluded.raw, last_seen_at = now()
          returning c.id, c.path
        ), sources as (
          insert into regwatch.change_sources (change_id, list_key)
          select id, ${window.listKey} from up
          on conflict do nothing
        ), files as (
          insert into regwatch.change_files (path)
          select distinct path from up
          on conflict (path) do nothing
          returning path
        )
        select (select count(*) from up)::int as changes, (select count(*) from files)::int as new_files`;
      result = { changes: row?.changes ?? 0, newFiles: row?.new_files ?? 0 };
    }
    await tx`
      insert into regwatch.coverage (list_key, start_date, end_date, requested_start, requested_end, change_count, run_id)
      values (${window.listKey}, ${window.returned.start}, ${window.returned.end}, ${window.requested.start},
              ${window.requested.end}, ${result.changes}, ${window.runId})
      on conflict (list_key, start_date, end_date) do update
        set change_count = excluded.change_count, run_id = excluded.run_id, fetched_at = now(),
            requested_start = excluded.requested_start, requested_end = excluded.requested_end`;
    return result;
  });
}

type StageRow = ReturnType<typeof distinctChanges>[number];

/** One line of COPY text format. */
function copyLine(row: StageRow): string {
  const headings = `{${row.headings.map((h) => `"${h.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`).join(",")}}`;
  return `${[row.tax_id, row.change_date, row.chapter, row.path, headings, JSON.stringify(row.raw)].map(copyField).join("\t")}\n`;
}

/** Escapes what COPY's text format treats specially. */
function copyField(value: string): string {
  return value.replace(/[\\\t\n\r]/g, (c) =>
    c === "\\" ? "\\\\" : c === "\t" ? "\\t" : c === "\n" ? "\\n" : "\\r",
  );
}

/** One row per change identity: the registry may repeat an item inside one answer. */
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
      raw: stripNul(window.raw[index] ?? item),
    });
  });
  return [...seen.values()];
}

/** jsonb cannot hold U+0000; such characters are replaced rather than losing the row. */
function stripNul(value: unknown): unknown {
  const text = JSON.stringify(value);
  return text.includes("\\u0000") ? JSON.parse(text.replaceAll("\\u0000", "\\ufffd")) : value;
}
