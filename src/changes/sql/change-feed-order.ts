/**
 * The change feed's order as SQL: newest day first, then business (tax id), heading, the day's
 * chained order (last value first, unordered values last) and change id, newest first. The last
 * two make it total: a change has at most one row per heading. A page starts after (or ends
 * before) a row's key, written out column by column because the order mixes directions, with the
 * day alone as a range the index on changes (change_date desc, tax_id) reads from (migration 0044),
 * and day and tax id checked again on the change alone, so the changes of the key's day before it
 * are passed over in the index scan, before their headings are read.
 */
import type { Fragment, Sql } from "../../db/connect.ts";

/** A row's place in the feed: everything the order compares. */
export interface FeedKey {
  changeDate: string;
  taxId: string;
  heading: string;
  /** Position among the business's same-day values of the heading; null when unknown or not read. */
  dayOrder: number | null;
  changeId: number;
}

/** Which side of `key` a page lies on: rows after it in the feed's order (older), or before it (newer). */
export type FeedSide = "after" | "before";

/**
 * The order over the inner rows (`c` the change, `x` the heading row) or the outer ones (`p`),
 * forwards (the feed's) or backwards (a page read towards the newest, reversed afterwards).
 */
export function feedOrder(sql: Sql, at: "inner" | "outer", backwards = false): Fragment {
  const [date, tax, heading, order, id] =
    at === "inner"
      ? ["c.change_date", "c.tax_id", "x.heading", "x.day_order", "c.id"]
      : ["p.change_date", "p.tax_id", "p.heading", "p.day_order", "p.change_id"];
  return backwards
    ? sql.unsafe(`${date} asc, ${tax} desc, ${heading} desc, ${order} asc nulls first, ${id} asc`)
    : sql.unsafe(`${date} desc, ${tax} asc, ${heading} asc, ${order} desc nulls last, ${id} desc`);
}

/** The inner rows strictly on `side` of `key` in the feed's order. */
export function beyondKey(sql: Sql, key: FeedKey, side: FeedSide): Fragment {
  const date = sql`${key.changeDate}::date`;
  if (side === "after") {
    const sameHeading =
      key.dayOrder === null
        ? sql`x.day_order is null and c.id < ${key.changeId}`
        : sql`(x.day_order < ${key.dayOrder} or x.day_order is null
               or (x.day_order = ${key.dayOrder} and c.id < ${key.changeId}))`;
    return sql`c.change_date <= ${date} and (c.change_date < ${date} or c.tax_id >= ${key.taxId})
      and (c.change_date < ${date} or c.tax_id > ${key.taxId}
      or (c.tax_id = ${key.taxId} and (x.heading > ${key.heading} or (x.heading = ${key.heading} and ${sameHeading}))))`;
  }
  const sameHeading =
    key.dayOrder === null
      ? sql`(x.day_order is not null or c.id > ${key.changeId})`
      : sql`(x.day_order > ${key.dayOrder} or (x.day_order = ${key.dayOrder} and c.id > ${key.changeId}))`;
  return sql`c.change_date >= ${date} and (c.change_date > ${date} or c.tax_id <= ${key.taxId})
    and (c.change_date > ${date} or c.tax_id < ${key.taxId}
    or (c.tax_id = ${key.taxId} and (x.heading < ${key.heading} or (x.heading = ${key.heading} and ${sameHeading}))))`;
}
