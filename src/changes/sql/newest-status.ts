/**
 * One rule for a business's status, used by the business page, the inbox, the payment guard and
 * `lookup`: the newest dated evidence wins. A change file's status is dated by its change's day
 * and known from when regwatch first saw the change; a search record says the registry's state as
 * loaded on the morning it was read, so it is dated the registry day before it was read and known
 * from its read. The newest day wins, and on one day the later learnt; a profile's own status is
 * taken only when neither source holds one. Days are the registry's (REGWATCH_REGISTRY_TZ).
 */
import type { Fragment, Sql, Tx } from "../../db/connect.ts";
import { dayIn } from "../../db/time-zone.ts";

/** Where the status came from. */
export type StatusSource = "change_file" | "search" | "profile";

/** The columns `newestStatus` gives, as a row reads them. */
export interface NewestStatus {
  statusCode: number | null;
  /** The evidence's day: the change's date, the day the search record was read, the profile's as_of. */
  statusOn: string | null;
  statusSource: StatusSource | null;
}

/**
 * A subquery of one row (or none): `code` (int), `on_day` (text, YYYY-MM-DD) and `source` of the
 * newest status evidence of the business whose tax base number is `taxId` (a column or value);
 * use it as `left join lateral (${newestStatus(...)}) ns on true`. Its own aliases start with `ns_`,
 * so an outer query's `c` or `b` in `taxId` is never taken for one of its own.
 */
export function newestStatus(sql: Sql | Tx, taxId: Fragment, timeZone: string): Fragment {
  const read = dayIn(sql, sql`ns_b.fetched_at`, timeZone);
  return sql`
    select ns_e.code, to_char(ns_e.shown, 'YYYY-MM-DD') as on_day, ns_e.source from (
      select (ns_cv.new_value #>> '{}')::int as code, ns_cv.change_date as dated, ns_cv.change_date as shown,
             ns_c.first_seen_at as learnt, ns_cv.day_order, 'change_file' as source, 0 as fallback
      from ${sql.t.change_values} ns_cv
      join ${sql.t.changes} ns_c on ns_c.id = ns_cv.change_id
      where ns_cv.tax_id = ${taxId} and ns_cv.heading in ('status', 'status_code')
        and not ns_cv.order_ambiguous and (ns_cv.new_value #>> '{}') ~ '^\\d{1,9}$'
      union all
      select ns_b.status_code, ${read} - 1, ${read}, ns_b.fetched_at, null, 'search', 0
      from ${sql.t.businesses} ns_b
      where ns_b.tax_id = ${taxId} and ns_b.status_code is not null
      union all
      select ns_p.status_code, ns_p.status_as_of, ns_p.status_as_of, null, null, 'profile', 1
      from ${sql.t.business_profiles} ns_p
      where ns_p.tax_id = ${taxId} and ns_p.status_code is not null
    ) ns_e
    order by ns_e.fallback, ns_e.dated desc nulls last, ns_e.learnt desc nulls last, ns_e.day_order desc nulls last
    limit 1`;
}

/** The three columns of `newestStatus` joined as `ns`, named as NewestStatus reads them. */
export function newestStatusColumns(sql: Sql | Tx): Fragment {
  return sql`ns.code as "statusCode", ns.on_day as "statusOn", ns.source as "statusSource"`;
}
