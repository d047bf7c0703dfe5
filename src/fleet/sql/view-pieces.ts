/**
 * The pieces of the fleet's views (views.ts): each account falls in one of PIECES pieces by a
 * digest of its name, so its place never depends on the other accounts. Piece `<view>_<nn>` of
 * schema regwatch_fleet_parts is a UNION ALL over the piece's accounts; regwatch_fleet's `<view>`
 * is a UNION ALL over the pieces that hold any account. Postgres flattens both levels into one
 * append, so a query's conditions still reach each account's tables. Every piece and view carries
 * a mark in its comment (`<columns digest>:<members digest>`): a rebuild writes only those whose
 * mark differs.
 */
import { createHash } from "node:crypto";
import type { Fragment, Sql } from "../../db/connect.ts";
import { DATA_VIEWS } from "../../db/reader-classes.ts";

export const FLEET_SCHEMA = "regwatch_fleet";
/** The pieces' schema: no reader needs it (a view reads the views it names as its owner). */
export const FLEET_PARTS_SCHEMA = "regwatch_fleet_parts";

/** About 30 accounts a piece at 1,000 accounts: adding one rewrites a view of that many branches. */
const PIECES = 32;

/** The piece an account's rows are in: FNV-1a of its name, so stable whatever else the file holds. */
export function pieceOf(account: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < account.length; i++) hash = Math.imul(hash ^ account.charCodeAt(i), 0x01000193) >>> 0;
  return hash % PIECES;
}

export function pieceName(view: string, piece: number): string {
  return `${view}_${String(piece).padStart(2, "0")}`;
}

/** The data view a piece's name belongs to (undefined for any other name). */
export function pieceView(name: string): string | undefined {
  const view = /^(.*)_\d{2}$/.exec(name)?.[1];
  return (DATA_VIEWS as readonly string[]).includes(view ?? "") ? view : undefined;
}

/** The accounts by piece, pieces in order, accounts by name within each. */
export function piecesOf<T extends { account: string }>(accounts: readonly T[]): Map<number, T[]> {
  const pieces = new Map<number, T[]>();
  for (const a of [...accounts].sort((x, y) => (x.account < y.account ? -1 : 1))) {
    const piece = pieceOf(a.account);
    pieces.set(piece, [...(pieces.get(piece) ?? []), a]);
  }
  return new Map([...pieces.entries()].sort(([a], [b]) => a - b));
}

export function digest(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 16);
}

export function union(t: Sql, parts: readonly Fragment[]): Fragment {
  return parts.reduce((all, part) => t`${all} union all ${part}`);
}

/**
 * The marks of the views regwatch_fleet and regwatch_fleet_parts hold: a view's by its name
 * (regwatch_fleet's) and a piece's by its own (the two never share a name).
 */
export async function viewMarks(t: Sql): Promise<Map<string, string>> {
  const rows = await t<{ name: string; mark: string | null }[]>`
    select c.relname as name, obj_description(c.oid, 'pg_class') as mark
    from pg_class c
    where c.relkind = 'v' and c.relnamespace in (to_regnamespace(${FLEET_SCHEMA}), to_regnamespace(${FLEET_PARTS_SCHEMA}))`;
  return new Map(rows.map((r) => [r.name, r.mark ?? ""]));
}

/** Each data view's columns (names and types, in order) in the account's schema `schema`. */
export async function viewColumns(t: Sql, schema: string): Promise<Map<string, string>> {
  const rows = await t<{ view: string; columns: string }[]>`
    select c.relname as view,
           string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod), ', ' order by a.attnum) as columns
    from pg_class c join pg_attribute a on a.attrelid = c.oid
    where c.relnamespace = to_regnamespace(${schema}) and c.relname = any(${[...DATA_VIEWS]}::text[])
      and a.attnum > 0 and not a.attisdropped
    group by c.relname`;
  return new Map(rows.map((r) => [r.view, r.columns]));
}

/** Creates or replaces `schema.name` as `body` (same columns as before, or none), with its mark. */
export async function writeView(
  t: Sql,
  schema: string,
  name: string,
  body: Fragment,
  mark: string,
): Promise<void> {
  await t`create or replace view ${t(schema)}.${t(name)} as ${body}`;
  // A comment takes no parameter; the mark is hex digits and a colon.
  if (!/^[0-9a-f]+:[0-9a-f]+$/.test(mark)) throw new Error(`not a view mark: ${mark}`);
  await t`comment on view ${t(schema)}.${t(name)} is ${t.unsafe(`'${mark}'`)}`;
}
