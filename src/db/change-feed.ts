/** The change feed: heading changes with names and lists, newest first, filtered. */
import type { Sql } from "./connect.ts";

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
 * The feed's statement, not yet run: awaited it gives every row (or one page of them with
 * `page`); `.cursor(n)` streams it n rows at a time, as the console's downloads do. A changed
 * heading whose values regwatch has not read is a row too (valuesRead false), so a change is never
 * left out of the feed for want of its file.
 */
export function feedQuery(sql: Sql, f: FeedFilter, page?: { limit: number; offset: number }) {
  return sql<FeedRow[]>`
    select to_char(h.change_date, 'YYYY-MM-DD') as "changeDate", h.tax_id as "taxId", h.business_name as "businessName",
           h.list_names as "listNames", h.heading, h.old_value as "oldValue", h.new_value as "newValue",
           h.change_id::int as "changeId", h.path, h.order_ambiguous as "orderAmbiguous",
           h.old_value_known as "oldValueKnown", h.values_read as "valuesRead",
           h.file_status as "fileStatus", h.parse_status as "parseStatus"
    from (
      select v.change_date, v.tax_id, v.business_name, v.list_names, v.heading, v.old_value, v.new_value,
             v.change_id, v.path, v.order_ambiguous, v.old_value_known, true as values_read,
             null::text as file_status, null::text as parse_status, v.day_order
      from v_heading_changes v
      union all
      select u.change_date, u.tax_id, u.business_name, u.list_names, u.heading, null, null,
             u.change_id, u.path, false, false, false, fl.status, fl.parse_status, null
      from v_change_headings u
      left join change_files fl on fl.path = u.path
      where not exists (select 1 from change_values cv where cv.change_id = u.change_id and cv.heading = u.heading)
    ) h
    where h.change_date >= ${f.since}::date
      and (${f.until}::date is null or h.change_date <= ${f.until}::date)
      and (cardinality(${f.lists as string[]}::text[]) = 0 or h.list_names && ${f.lists as string[]}::text[])
      and (cardinality(${f.headings as string[]}::text[]) = 0 or h.heading = any(${f.headings as string[]}::text[]))
      and (${f.taxId}::text is null or h.tax_id = ${f.taxId}::text)
    order by h.change_date desc, h.tax_id, h.heading, h.day_order desc nulls last, h.change_id desc
    ${page ? sql`limit ${page.limit} offset ${page.offset}` : sql``}`;
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
    select (select count(*)::int from changes) as changes,
           (select count(*)::int from (select change_id from change_sources
              group by change_id having count(*) > 1) s) as "inSeveralLists",
           (select count(*)::int from change_files where parse_status = 'parsed') as "filesParsed",
           (select count(*)::int from change_values) as values,
           (select count(*)::int from business_profiles) as profiles`;
  return row!;
}
