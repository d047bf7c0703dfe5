/**
 * SQL pieces every retention step shares: the cut it applies, the removal marker, whether a value
 * is still there to remove, whether a business is watched.
 */
import type { Fragment, Sql } from "../../db/connect.ts";
import { REMOVED_TEXT } from "../policy.ts";

/** One kind's cut: data dated before `before` goes; `today` is the marker's day; `tz` the days' zone. */
export interface Cut {
  before: string;
  today: string;
  tz: string;
}

/** The JSON marker a removed value reads as. */
export function marker(sql: Sql, cut: Cut): Fragment {
  return sql`jsonb_build_object('removed', 'retention', 'on', ${cut.today}::text)`;
}

/** The text marker a removed text reads as. */
export function markerText(sql: Sql): Fragment {
  return sql`${REMOVED_TEXT}::text`;
}

/** The cut's first instant: a timestamp before it is older than the policy keeps. */
export function cutInstant(sql: Sql, cut: Cut): Fragment {
  return sql`(${cut.before}::date::timestamp at time zone ${cut.tz})`;
}

/** A JSON value that holds something the marker has not replaced yet. */
export function live(sql: Sql, value: Fragment): Fragment {
  return sql`(${value} is not null and jsonb_typeof(${value}) <> 'null' and (${value} ->> 'removed') is distinct from 'retention')`;
}

/** No list watches the business and none wants it: what is known of it serves nobody's watch. */
export function unwatched(sql: Sql, taxId: Fragment): Fragment {
  return sql`(not exists (select 1 from ${sql.t.watched_items} w where w.tax_id = ${taxId})
    and not exists (select 1 from ${sql.t.desired_items} d
                    where left(regexp_replace(d.tax_id, '[^0-9]', '', 'g'), 8) = ${taxId}))`;
}

/** One batch's outcome: rows picked (at most the limit), rows changed, and the last row picked. */
export interface BatchOutcome {
  picked: number;
  changed: number;
  /** The last row picked (its ctid), null when none was: the next batch starts after it. */
  last: string | null;
}

/**
 * Where a batch looks: rows after `after` and before `before` (ctids, the table's physical order).
 * A batch reads one range of pages at most, so no batch scans the rows done before it.
 */
export interface BatchRange {
  after: string;
  before: string;
}

/** A step of a kind: how many rows it would change, its table's pages, and one committed batch. */
export interface RetentionStep {
  count(sql: Sql, cut: Cut): Promise<number>;
  pages(sql: Sql): Promise<number>;
  batch(sql: Sql, cut: Cut, limit: number, range: BatchRange): Promise<BatchOutcome>;
}

type Part = (sql: Sql, cut: Cut) => Fragment;

async function pagesOf(sql: Sql, table: Fragment): Promise<number> {
  const [row] = await sql<{ pages: string }[]>`
    select pg_relation_size(v.tableoid) / current_setting('block_size')::bigint as pages from ${table} v limit 1`;
  return Number(row?.pages ?? 0);
}

async function countWhere(sql: Sql, table: Fragment, alias: Fragment, where: Fragment): Promise<number> {
  const [row] = await sql<{ n: string }[]>`select count(*) as n from ${table} ${alias} where ${where}`;
  return Number(row?.n ?? 0);
}

/**
 * A step over the rows of `table` (seen as `v` in `where`) matching `where`, at most `limit` a
 * batch, each batch one statement (its own transaction): `change` rewrites or deletes the picked
 * rows (`t`); `counted` (default `where`) is what a dry run counts.
 */
function stepOver(
  table: (sql: Sql) => Fragment,
  where: Part,
  change: (sql: Sql, cut: Cut, table: Fragment, picked: Fragment) => Fragment,
  counted: Part = where,
): RetentionStep {
  return {
    count: (sql, cut) => countWhere(sql, table(sql), sql`v`, counted(sql, cut)),
    pages: (sql) => pagesOf(sql, table(sql)),
    batch: async (sql, cut, limit, range) => {
      const [row] = await sql<{ picked: number; changed: number; last: string | null }[]>`
        with pick as (select v.ctid as id from ${table(sql)} v
                      where v.ctid > ${range.after}::tid and v.ctid < ${range.before}::tid and ${where(sql, cut)}
                      order by v.ctid limit ${limit}),
             done as (${change(sql, cut, table(sql), sql`t.ctid = any(array(select id from pick))`)} returning 1)
        select (select count(*) from pick)::int as picked, (select count(*) from done)::int as changed,
               (select id from pick order by id desc limit 1)::text as last`;
      return { picked: row?.picked ?? 0, changed: row?.changed ?? 0, last: row?.last ?? null };
    },
  };
}

/** A step that rewrites the picked rows (`t` in `set`): one statement per batch of the table's pages. */
export function updating(table: (sql: Sql) => Fragment, where: Part, set: Part): RetentionStep {
  return stepOver(
    table,
    where,
    (sql, cut, t, picked) => sql`update ${t} t set ${set(sql, cut)} where ${picked}`,
  );
}

/**
 * A step that deletes the picked rows; `counted` (default `where`) is what a dry run counts, when
 * an earlier step frees the rows first.
 */
export function deleting(table: (sql: Sql) => Fragment, where: Part, counted: Part = where): RetentionStep {
  return stepOver(table, where, (sql, _cut, t, picked) => sql`delete from ${t} t where ${picked}`, counted);
}

/** A step that deletes the rows of `table` whose `column` (a time) is before the cut. */
export function deletingOlder(table: (sql: Sql) => Fragment, column: string): RetentionStep {
  return deleting(table, (sql, cut) => sql`v.${sql(column)} < ${cutInstant(sql, cut)}`);
}
