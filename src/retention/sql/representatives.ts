/**
 * Representatives' names: replaced by the marker once they stopped being current longer than the
 * policy keeps them. In change_values an old value stopped being current on its change's day, a
 * new value on the day of the business's next representatives change; in the search records and
 * profiles of businesses no longer watched, the names read that long ago.
 */
import type { Fragment, Sql } from "../../db/connect.ts";
import { type Cut, cutInstant, live, marker, type RetentionStep, unwatched, updating } from "./fragments.ts";

const values = (sql: Sql) => sql`${sql.t.change_values}`;

/** A profile heading's representatives, read before the cut. */
function headingDue(sql: Sql, cut: Cut, p: Fragment): Fragment {
  return sql`(${live(sql, sql`(${p}.headings -> 'representatives' -> 'value')`)}
    and (${p}.headings -> 'representatives' ->> 'as_of') < ${cut.before})`;
}

/** A profile baseline's representatives (a search record), read before the cut. */
function baselineDue(sql: Sql, cut: Cut, p: Fragment): Fragment {
  return sql`(${live(sql, sql`(${p}.baseline -> 'representatives')`)} and ${p}.baseline_as_of < ${cut.before}::date)`;
}

/** change_values' old values, superseded on their change's day. */
const changeOld = updating(
  values,
  (sql, cut) =>
    sql`v.heading = 'representatives' and v.change_date < ${cut.before}::date and ${live(sql, sql`v.old_value`)}`,
  (sql, cut) => sql`old_value = ${marker(sql, cut)}`,
);

/** change_values' new values, superseded by a later change before the cut. */
const changeNew = updating(
  values,
  (sql, cut) => sql`v.heading = 'representatives' and v.change_date < ${cut.before}::date
    and ${live(sql, sql`v.new_value`)}
    and exists (select 1 from ${sql.t.change_values} later
                where later.tax_id = v.tax_id and later.heading = 'representatives'
                  and later.change_date < ${cut.before}::date
                  and (later.change_date, later.change_id) > (v.change_date, v.change_id))`,
  (sql, cut) => sql`new_value = ${marker(sql, cut)}`,
);

/** Profiles of businesses no longer watched. */
const profileNames = updating(
  (sql) => sql`${sql.t.business_profiles}`,
  (sql, cut) =>
    sql`${unwatched(sql, sql`v.tax_id`)} and (${headingDue(sql, cut, sql`v`)} or ${baselineDue(sql, cut, sql`v`)})`,
  (sql, cut) => sql`
    headings = case when ${headingDue(sql, cut, sql`t`)}
                    then jsonb_set(t.headings, '{representatives,value}', ${marker(sql, cut)}) else t.headings end,
    baseline = case when ${baselineDue(sql, cut, sql`t`)}
                    then jsonb_set(t.baseline, '{representatives}', ${marker(sql, cut)}) else t.baseline end`,
);

/** Search records of businesses no longer watched, read before the cut. */
const recordNames = updating(
  (sql) => sql`${sql.t.businesses}`,
  (
    sql,
    cut,
  ) => sql`v.fetched_at < ${cutInstant(sql, cut)} and ${live(sql, sql`(v.record -> 'representatives')`)}
    and ${unwatched(sql, sql`v.tax_id`)}`,
  (sql, cut) => sql`
    record = jsonb_set(t.record, '{representatives}', ${marker(sql, cut)}),
    records = coalesce((select jsonb_agg(case when jsonb_typeof(r) = 'object' and r ? 'representatives'
                                              then jsonb_set(r, '{representatives}', ${marker(sql, cut)}) else r end)
                        from jsonb_array_elements(t.records) r), '[]'::jsonb)`,
);

export const REPRESENTATIVE_STEPS: readonly RetentionStep[] = [
  changeOld,
  changeNew,
  profileNames,
  recordNames,
];
