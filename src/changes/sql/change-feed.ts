/** The change feed: heading changes with names and lists, newest first, filtered. */

import type { Fragment, Sql } from "../../db/connect.ts";
import { beyondKey, type FeedKey, type FeedSide, feedOrder } from "./change-feed-order.ts";

export type { FeedKey, FeedSide } from "./change-feed-order.ts";

export interface FeedFilter {
  since: string;
  until: string | null;
  lists: readonly string[];
  headings: readonly string[];
  taxId: string | null;
}

export interface FeedRow {
  changeDate: string;
  taxId: string;
  businessName: string | null;
  listNames: string[];
  heading: string;
  oldValue: unknown;
  newValue: unknown;
  changeId: number;
  path: string;
  /** True when the business has several values of this heading that day and no chain orders them. */
  orderAmbiguous: boolean;
  /** False when the change file did not give the old value (oldValue is then null, not known to be). */
  oldValueKnown: boolean;
  /** False when regwatch has no values of the heading for this change (its file not read, or silent on it). */
  valuesRead: boolean;
  /** Of an unread row: its file's status and parse status (null when there is none). */
  fileStatus: string | null;
  parseStatus: string | null;
}

export async function readFeed(sql: Sql, f: FeedFilter): Promise<FeedRow[]> {
  return feedQuery(sql, f);
}

/**
 * The feed's statement, not yet run: awaited it gives every row; `.cursor(n)` streams it n rows at
 * a time, as the console's downloads do. A changed heading whose values regwatch has not read is a
 * row too (valuesRead false), so a change is never left out of the feed for want of its file.
 */
export function feedQuery(sql: Sql, f: FeedFilter) {
  return sql<FeedRow[]>`${feedStatement(sql, f, null)}`;
}

export interface FeedSlice {
  /** Rows wanted (ask one more than shown to learn whether the feed goes on). */
  limit: number;
  /** The key the page starts after or ends before; null: from the newest end (after) or the oldest (before). */
  key: FeedKey | null;
  side: FeedSide;
}

/**
 * One page of the feed by keyset: the `limit` rows next to `slice.key` on its side, in the feed's
 * order whichever side, each with its key (the next page starts after the last row's). Read in the
 * order of the index on changes, so the 2,000th page costs what the first does.
 */
export async function feedPage(
  sql: Sql,
  f: FeedFilter,
  slice: FeedSlice,
): Promise<{ rows: FeedRow[]; keys: FeedKey[] }> {
  const found = await sql<(FeedRow & { dayOrder: number | null })[]>`${feedStatement(sql, f, slice)}`;
  const rows: FeedRow[] = [];
  const keys: FeedKey[] = [];
  for (const { dayOrder, ...row } of found) {
    rows.push(row);
    keys.push({
      changeDate: row.changeDate,
      taxId: row.taxId,
      heading: row.heading,
      dayOrder,
      changeId: row.changeId,
    });
  }
  return { rows, keys };
}

/**
 * Every change's headings, driven from changes in the order of its index: the values read for
 * the change (whatever heading), then each changed heading it has no values of. Names, lists and
 * file status are joined to the page only, after the limit.
 */
function feedStatement(sql: Sql, f: FeedFilter, slice: FeedSlice | null): Fragment {
  const where: Fragment[] = [sql`c.change_date >= ${f.since}::date`];
  if (f.until !== null) where.push(sql`c.change_date <= ${f.until}::date`);
  if (f.taxId !== null) where.push(sql`c.tax_id = ${f.taxId}::text`);
  if (f.headings.length > 0) where.push(sql`x.heading = any (${f.headings as string[]}::text[])`);
  if (f.lists.length > 0) {
    where.push(sql`exists (
      select 1 from ${sql.t.change_sources} s left join ${sql.t.watch_lists} l on l.list_key = s.list_key
      where s.change_id = c.id and coalesce(l.list_name, s.list_key) = any (${f.lists as string[]}::text[]))`);
  }
  if (slice?.key) where.push(beyondKey(sql, slice.key, slice.side));
  const backwards = slice?.side === "before";
  const limited = slice ? sql`order by ${feedOrder(sql, "inner", backwards)} limit ${slice.limit}` : sql``;
  return sql`
    select to_char(p.change_date, 'YYYY-MM-DD') as "changeDate", p.tax_id as "taxId",
           coalesce(bp.name, b.full_name, case when not p.values_read then b.short_name end) as "businessName",
           coalesce(src.list_names, '{}') as "listNames", p.heading, p.old_value as "oldValue",
           p.new_value as "newValue", p.change_id::int as "changeId", p.path, p.order_ambiguous as "orderAmbiguous",
           p.old_value_known as "oldValueKnown", p.values_read as "valuesRead",
           fl.status as "fileStatus", fl.parse_status as "parseStatus"
           ${slice ? sql`, p.day_order as "dayOrder"` : sql``}
    from (
      select c.id as change_id, c.tax_id, c.change_date, x.path, x.heading, x.old_value, x.new_value, x.day_order,
             x.order_ambiguous, x.old_value_known, x.values_read
      from ${sql.t.changes} c
      cross join lateral (
        select cv.heading, cv.old_value, cv.new_value, cv.day_order, cv.order_ambiguous, cv.old_value_known,
               true as values_read, cv.path
        from ${sql.t.change_values} cv where cv.change_id = c.id
        union all
        select h.heading, null::jsonb, null::jsonb, null::int, false, false, false, c.path
        from unnest(c.changed_headings) as h(heading)
        where not exists (select 1 from ${sql.t.change_values} v where v.change_id = c.id and v.heading = h.heading)
      ) x
      where ${where.reduce((all, one) => sql`${all} and ${one}`)}
      ${limited}
    ) p
    left join ${sql.t.business_profiles} bp on bp.tax_id = p.tax_id
    left join ${sql.t.businesses} b on b.tax_id = p.tax_id
    left join lateral (
      select array_agg(distinct coalesce(l.list_name, s.list_key)) as list_names
      from ${sql.t.change_sources} s left join ${sql.t.watch_lists} l on l.list_key = s.list_key
      where s.change_id = p.change_id
    ) src on true
    left join lateral (
      -- Per row by its key (a hash of every file would read them all): only unread rows show a file.
      select f.status, f.parse_status from ${sql.t.change_files} f where not p.values_read and f.path = p.path limit 1
    ) fl on true
    order by ${feedOrder(sql, "outer")}`;
}

export interface ChangeTotals {
  changes: number;
  inSeveralLists: number;
  filesParsed: number;
  values: number;
  profiles: number;
}

/** What the tables hold, each change counted once whatever number of lists reported it. */
export async function changeTotals(sql: Sql): Promise<ChangeTotals> {
  const [row] = await sql<ChangeTotals[]>`
    select (select count(*)::int from ${sql.t.changes}) as changes,
           (select count(*)::int from (select change_id from ${sql.t.change_sources}
              group by change_id having count(*) > 1) s) as "inSeveralLists",
           (select count(*)::int from ${sql.t.change_files} where parse_status = 'parsed') as "filesParsed",
           (select count(*)::int from ${sql.t.change_values}) as values,
           (select count(*)::int from ${sql.t.business_profiles}) as profiles`;
  return row!;
}
