/**
 * The rows a window writes, worked out before any SQL: one per change identity, in key order,
 * each with the fields its typed columns do not hold.
 */
import type { ChangeItemRow as ChangedItem, ReceivedChangeRow } from "../../db/rows.ts";

/** One change as sent to Postgres. */
export interface ChangeRow {
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
export function distinctChanges(items: readonly ReceivedChangeRow[]): ChangeRow[] {
  const rows = items.map(({ item, raw }) => ({
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

/**
 * The rows' extra fields as their distinct JSON texts and, per row, the 1-based position of its
 * text there (an int array literal).
 */
export function extrasColumn(rows: readonly ChangeRow[]): { texts: string[]; index: string } {
  const positions = new Map<string, number>();
  const index: number[] = [];
  for (const row of rows) {
    const text = JSON.stringify(row.e);
    let position = positions.get(text);
    if (position === undefined) {
      position = positions.size + 1;
      positions.set(text, position);
    }
    index.push(position);
  }
  return { texts: [...positions.keys()], index: `{${index.join(",")}}` };
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
