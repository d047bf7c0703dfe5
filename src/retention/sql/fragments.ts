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

/** A step of a kind: how many rows it would change, and one committed batch of at most `limit`. */
export interface RetentionStep {
  count(sql: Sql, cut: Cut): Promise<number>;
  batch(sql: Sql, cut: Cut, limit: number): Promise<number>;
}

type Part = (sql: Sql, cut: Cut) => Fragment;

async function countWhere(sql: Sql, table: Fragment, alias: Fragment, where: Fragment): Promise<number> {
  const [row] = await sql<{ n: string }[]>`select count(*) as n from ${table} ${alias} where ${where}`;
  return Number(row?.n ?? 0);
}

/**
 * A step that rewrites the rows of `table` (seen as `v` in `where`, as `t` in `set`) matching
 * `where`, at most `limit` a batch, each batch one statement (its own transaction).
 */
export function updating(table: (sql: Sql) => Fragment, where: Part, set: Part): RetentionStep {
  return {
    count: (sql, cut) => countWhere(sql, table(sql), sql`v`, where(sql, cut)),
    batch: async (sql, cut, limit) =>
      (
        await sql`update ${table(sql)} t set ${set(sql, cut)}
          where t.ctid = any(array(select v.ctid from ${table(sql)} v where ${where(sql, cut)} limit ${limit}))`
      ).count,
  };
}

/**
 * A step that deletes the rows of `table` (seen as `v`) matching `where`, at most `limit` a batch;
 * `counted` (default `where`) is what a dry run counts, when an earlier step frees the rows first.
 */
export function deleting(table: (sql: Sql) => Fragment, where: Part, counted: Part = where): RetentionStep {
  return {
    count: (sql, cut) => countWhere(sql, table(sql), sql`v`, counted(sql, cut)),
    batch: async (sql, cut, limit) =>
      (
        await sql`delete from ${table(sql)} t
          where t.ctid = any(array(select v.ctid from ${table(sql)} v where ${where(sql, cut)} limit ${limit}))`
      ).count,
  };
}

/** A step that deletes the rows of `table` whose `column` (a time) is before the cut. */
export function deletingOlder(table: (sql: Sql) => Fragment, column: string): RetentionStep {
  return deleting(table, (sql, cut) => sql`v.${sql(column)} < ${cutInstant(sql, cut)}`);
}
