/**
 * Sole proprietors' records (type self_employed: the business's name is a person's): when no list
 * watches or wants the business and its record was read before the cut, its name, address and
 * representatives become the marker in the search record and the profile. The tax id, type, status
 * and bank accounts stay, so payment checks and changes still find the business.
 */
import type { Fragment, Sql } from "../../db/connect.ts";
import {
  type Cut,
  cutInstant,
  live,
  marker,
  markerText,
  type RetentionStep,
  unwatched,
  updating,
} from "./fragments.ts";

/** The fields of a record or profile that name or place the person. */
const PERSONAL = ["full_name", "short_name", "long_name", "name", "address", "seat", "representatives"];

/** The marker in the value's shape: the text marker for a text, the JSON marker for the rest. */
function markerFor(sql: Sql, cut: Cut, value: Fragment): Fragment {
  return sql`case when jsonb_typeof(${value}) = 'string' then to_jsonb(${markerText(sql)}) else ${marker(sql, cut)} end`;
}

/** The record with every personal field replaced by the marker. */
function scrubbed(sql: Sql, cut: Cut, value: Fragment): Fragment {
  return sql`coalesce((select jsonb_object_agg(k, case when k = any(${PERSONAL}::text[]) and ${live(sql, sql`v`)}
                                                    then ${markerFor(sql, cut, sql`v`)} else v end)
                       from jsonb_each(${value}) e(k, v)), '{}'::jsonb)`;
}

/** A text column: the marker, unless it held nothing. */
function textMarker(sql: Sql, column: string): Fragment {
  return sql`${sql(column)} = case when t.${sql(column)} is null then null else ${markerText(sql)} end`;
}

const soleRecords = updating(
  (sql) => sql`${sql.t.businesses}`,
  (sql, cut) => sql`v.type = 'self_employed' and v.fetched_at < ${cutInstant(sql, cut)}
    and v.full_name is distinct from ${markerText(sql)} and ${unwatched(sql, sql`v.tax_id`)}`,
  (sql, cut) => sql`
    full_name = ${markerText(sql)}, ${textMarker(sql, "short_name")}, ${textMarker(sql, "address")},
    record = ${scrubbed(sql, cut, sql`t.record`)},
    records = coalesce((select jsonb_agg(case when jsonb_typeof(r) = 'object' then ${scrubbed(sql, cut, sql`r`)} else r end)
                        from jsonb_array_elements(t.records) r), '[]'::jsonb)`,
);

const soleProfiles = updating(
  (sql) => sql`${sql.t.business_profiles}`,
  (sql, cut) => sql`v.type = 'self_employed' and v.updated_at < ${cutInstant(sql, cut)}
    and v.name is distinct from ${markerText(sql)} and ${unwatched(sql, sql`v.tax_id`)}`,
  (sql, cut) => sql`
    name = ${markerText(sql)}, ${textMarker(sql, "seat")},
    headings = coalesce((select jsonb_object_agg(k, case when k = any(${PERSONAL}::text[]) and jsonb_typeof(v) = 'object'
                                                           and ${live(sql, sql`(v -> 'value')`)}
                                                      then jsonb_set(v, '{value}', ${markerFor(sql, cut, sql`(v -> 'value')`)})
                                                      else v end)
                         from jsonb_each(t.headings) e(k, v)), '{}'::jsonb),
    baseline = case when jsonb_typeof(t.baseline) = 'object' then ${scrubbed(sql, cut, sql`t.baseline`)} else t.baseline end`,
);

export const SOLE_PROPRIETOR_STEPS: readonly RetentionStep[] = [soleRecords, soleProfiles];
