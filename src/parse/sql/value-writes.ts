/**
 * Writing what the parse step found: each file's values (already attributed to their changes),
 * its parse status, the same-day order of every heading those values touch, and the profiles of
 * their businesses, one batch of files per transaction.
 */

import type { Sql, Tx } from "../../db/connect.ts";
import { redactSecrets } from "../../secrets.ts";
import { rebuildChangeFacts } from "./business-profiles.ts";

/** One change's values for one heading, as attribution gave them. */
export interface ValueRow {
  changeId: number;
  heading: string;
  oldValue: unknown;
  /** The file did not give the old value: stored as null with old_value_known false. */
  oldUnknown: boolean;
  newValue: unknown;
  /** The file gave the heading more than once and the values do not chain into one order. */
  fileOrderAmbiguous: boolean;
}

/** What parsing one file came to, as change_files and change_values record it. */
export type SaveOutcome =
  | { status: "parsed" | "unattributed"; parser: string; values: ValueRow[]; reason: string | null }
  | { status: "unrecognised"; reason: string }
  | { status: "failed"; parser: string | null; reason: string };

export interface ParsedFile {
  path: string;
  /** The file's change_ids as read: a file that gained a change since is left to be parsed again. */
  changeIds: readonly number[];
  outcome: SaveOutcome;
}

/** One stored value of a business's heading on a day, for ordering the day's values. */
export interface DayValue {
  oldValue: unknown;
  newValue: unknown;
  oldUnknown: boolean;
}

export interface SaveOptions {
  /** The last complete day: a value dated after it never reaches a profile. */
  lastComplete: string;
  /** The registry's zone: the day a search record was read is a day of its calendar. */
  registryTz: string;
  /** Positions (1 = first) of one day's values of one heading when their values decide it, else null. */
  orderDay: (values: readonly DayValue[]) => number[] | null;
}

/** Text Postgres can hold: NUL and unpaired surrogates (a parser's message may quote them) escaped. */
export function storableText(text: string): string {
  return text
    .replaceAll("\u0000", "\\u0000")
    .replace(
      /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16)}`,
    );
}

interface Touched {
  tax_id: string;
  change_date: string;
  heading: string;
}

/**
 * Replaces the values of every file of the batch with what its parse found (so a re-parse leaves
 * exactly the file's values), marks each file, orders the same-day values the batch touched and
 * rebuilds the profiles of their businesses. Returns the number of value rows written.
 */
export async function saveParsedFiles(
  sql: Sql,
  files: readonly ParsedFile[],
  options: SaveOptions,
): Promise<number> {
  if (files.length === 0) return 0;
  const values = files.flatMap((f) =>
    f.outcome.status === "parsed" || f.outcome.status === "unattributed"
      ? f.outcome.values.map((v) => ({
          path: f.path,
          change_id: v.changeId,
          heading: v.heading,
          old_value: v.oldUnknown ? null : v.oldValue,
          old_value_known: !v.oldUnknown,
          new_value: v.newValue,
          file_order_ambiguous: v.fileOrderAmbiguous,
        }))
      : [],
  );
  const marks = files.map((f) => ({
    path: f.path,
    change_ids: f.changeIds,
    parse_status: f.outcome.status,
    parser: f.outcome.status === "unrecognised" ? null : f.outcome.parser,
    parse_error:
      f.outcome.reason === null ? null : storableText(redactSecrets(f.outcome.reason).slice(0, 2000)),
  }));
  const paths = files.map((f) => f.path);
  return sql.begin(async (tx) => {
    const removed = await tx<Touched[]>`
      delete from ${tx.t.change_values} where path = any(${paths}::text[])
      returning tax_id, to_char(change_date, 'YYYY-MM-DD') as change_date, heading`;
    let written: Touched[] = [];
    if (values.length > 0) {
      // Tax id and date come from the change itself; a change deleted meanwhile takes nothing.
      written = await tx<Touched[]>`
        insert into ${tx.t.change_values}
          (change_id, heading, tax_id, change_date, old_value, old_value_known, new_value, path, file_order_ambiguous)
        select c.id, r.heading, c.tax_id, c.change_date, r.old_value, r.old_value_known, r.new_value, r.path,
               r.file_order_ambiguous
        from jsonb_to_recordset(${tx.json(values as never)}::jsonb)
          as r(path text, change_id bigint, heading text, old_value jsonb, old_value_known boolean, new_value jsonb,
               file_order_ambiguous boolean)
        join ${tx.t.changes} c on c.id = r.change_id
        order by c.id, r.heading
        on conflict (change_id, heading) do update set
          tax_id = excluded.tax_id, change_date = excluded.change_date, old_value = excluded.old_value,
          old_value_known = excluded.old_value_known, new_value = excluded.new_value, path = excluded.path,
          file_order_ambiguous = excluded.file_order_ambiguous, parsed_at = now()
        returning tax_id, to_char(change_date, 'YYYY-MM-DD') as change_date, heading`;
    }
    // A file whose changes changed while it was parsed keeps no status, so the next parse sees the new change.
    await tx`
      update ${tx.t.change_files} f
      set parse_status = r.parse_status, parser = r.parser, parse_error = r.parse_error, parsed_at = now()
      from jsonb_to_recordset(${tx.json(marks as never)}::jsonb)
        as r(path text, change_ids bigint[], parse_status text, parser text, parse_error text)
      where f.path = r.path and f.change_ids = r.change_ids`;
    const touched = [...removed, ...written];
    await orderSameDay(tx, touched, options.orderDay);
    await rebuildChangeFacts(
      tx,
      [...new Set(touched.map((t) => t.tax_id))],
      options.lastComplete,
      options.registryTz,
    );
    return written.length;
  });
}

/**
 * Sets day_order and order_ambiguous on every value of the (business, day, heading) groups
 * given, from all their stored values, whichever file or batch they came from.
 */
async function orderSameDay(
  tx: Tx,
  touched: readonly Touched[],
  orderDay: SaveOptions["orderDay"],
): Promise<void> {
  if (touched.length === 0) return;
  const groups = [...new Map(touched.map((t) => [`${t.tax_id}|${t.change_date}|${t.heading}`, t])).values()];
  const rows = await tx<
    {
      change_id: number;
      tax_id: string;
      change_date: string;
      heading: string;
      old_value: unknown;
      old_value_known: boolean;
      new_value: unknown;
      file_order_ambiguous: boolean;
    }[]
  >`
    select cv.change_id::float8 as change_id, cv.tax_id, to_char(cv.change_date, 'YYYY-MM-DD') as change_date,
           cv.heading, cv.old_value, cv.old_value_known, cv.new_value, cv.file_order_ambiguous
    from jsonb_to_recordset(${tx.json(groups as never)}::jsonb) as g(tax_id text, change_date date, heading text)
    join ${tx.t.change_values} cv
      on cv.tax_id = g.tax_id and cv.change_date = g.change_date and cv.heading = g.heading
    order by cv.change_id`;
  if (rows.length === 0) return;
  const byGroup = new Map<string, (typeof rows)[number][]>();
  for (const row of rows) {
    const key = `${row.tax_id}|${row.change_date}|${row.heading}`;
    const group = byGroup.get(key);
    if (group) group.push(row);
    else byGroup.set(key, [row]);
  }
  const orders = [...byGroup.values()].flatMap((group) => {
    const positions = group.some((r) => r.file_order_ambiguous)
      ? null
      : orderDay(
          group.map((r) => ({
            oldValue: r.old_value,
            newValue: r.new_value,
            oldUnknown: !r.old_value_known,
          })),
        );
    return group.map((r, i) => ({
      change_id: r.change_id,
      heading: r.heading,
      day_order: positions ? positions[i]! : null,
      order_ambiguous: positions === null,
    }));
  });
  await tx`
    update ${tx.t.change_values} cv
    set day_order = r.day_order, order_ambiguous = r.order_ambiguous
    from jsonb_to_recordset(${tx.json(orders as never)}::jsonb)
      as r(change_id bigint, heading text, day_order int, order_ambiguous boolean)
    where cv.change_id = r.change_id and cv.heading = r.heading
      and (cv.day_order is distinct from r.day_order or cv.order_ambiguous <> r.order_ambiguous)`;
}
