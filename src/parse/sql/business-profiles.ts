/**
 * Writes what a source tells about businesses into business_profiles. Each heading keeps the
 * newest value (an older as_of never overwrites a newer one); name, status and seat are then
 * read back out of the headings so they always agree with them. What change files tell is
 * rebuilt from change_values as a whole (rebuildChangeFacts), never merged file by file, so the
 * same-day order and a value that is gone are always reflected.
 */

import type { Sql, Tx } from "../../db/connect.ts";
import { dayIn } from "../../db/time-zone.ts";

export type ProfileSource = "search" | "operator" | "change_file";

/** One heading's value with the day it is known to hold from and where it came from. */
export interface HeadingFact {
  value: unknown;
  as_of: string;
  source: ProfileSource;
  /**
   * Set (with value null) when change files gave the heading several values on its last day and
   * no chain of old and new values orders them: `candidates` are the values it may hold.
   */
  order_ambiguous?: true;
  candidates?: unknown[];
}

/** What one source tells about one business (src/parse/profile-facts.ts builds them). */
export interface ProfileFacts {
  taxId: string;
  headings: Record<string, HeadingFact>;
  type?: string | null;
  registrationNumber?: string | null;
  /** The search record itself, kept as the baseline when the profile has none yet. */
  baseline?: unknown;
  baselineAsOf?: string;
}

/**
 * Headings that carry a name, best first; the SQL picks the newest of the registry's names (an
 * operator's only when the registry named none), short names only as a fallback.
 */
export const NAME_HEADINGS = ["long_name", "full_name", "name", "short_name"] as const;
export const STATUS_HEADINGS = ["status", "status_code"] as const;
export const SEAT_HEADINGS = ["address", "seat"] as const;

export async function mergeProfiles(sql: Sql, facts: readonly ProfileFacts[]): Promise<void> {
  if (facts.length === 0) return;
  await sql.begin((tx) => writeProfiles(tx, facts));
}

/** mergeProfiles inside a transaction the caller holds. */
export async function writeProfiles(tx: Tx, facts: readonly ProfileFacts[]): Promise<void> {
  if (facts.length === 0) return;
  // One row per business: a later fact of the same business in the list wins per heading.
  const byTaxId = new Map<string, ProfileFacts>();
  for (const f of facts) {
    const seen = byTaxId.get(f.taxId);
    byTaxId.set(
      f.taxId,
      seen
        ? {
            ...seen,
            ...Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined)),
            headings: { ...seen.headings, ...f.headings },
          }
        : f,
    );
  }
  const rows = [...byTaxId.values()].map((f) => ({
    tax_id: f.taxId,
    headings: f.headings,
    type: f.type ?? null,
    registration_number: f.registrationNumber ?? null,
    baseline: f.baseline ?? null,
    baseline_as_of: f.baselineAsOf ?? null,
  }));
  const taxIds = rows.map((r) => r.tax_id);
  await tx`
      insert into ${tx.t.business_profiles} (tax_id)
      select unnest(${taxIds}::text[]) order by 1
      on conflict (tax_id) do nothing`;
  await tx`
      update ${tx.t.business_profiles} p set
        headings = p.headings || coalesce((
          select jsonb_object_agg(e.key, e.value)
          from jsonb_each(r.headings) e
          where p.headings -> e.key ->> 'as_of' is null
             or (p.headings -> e.key ->> 'as_of')::date <= (e.value ->> 'as_of')::date
        ), '{}'::jsonb),
        type = coalesce(r.type, p.type),
        registration_number = coalesce(r.registration_number, p.registration_number),
        baseline = coalesce(p.baseline, r.baseline),
        baseline_as_of = case when p.baseline is null then r.baseline_as_of else p.baseline_as_of end,
        updated_at = now()
      from jsonb_to_recordset(${tx.json(rows as never)}::jsonb)
        as r(tax_id text, headings jsonb, type text, registration_number text, baseline jsonb, baseline_as_of date)
      where p.tax_id = r.tax_id`;
  await summarise(tx, taxIds);
}

/** Name, status and seat read back out of the headings (an ambiguous heading has no value to give). */
async function summarise(tx: Tx, taxIds: readonly string[]): Promise<void> {
  await tx`
      update ${tx.t.business_profiles} p set
        (name, name_as_of, name_source) = (
          select e.value ->> 'value', (e.value ->> 'as_of')::date, e.value ->> 'source'
          from jsonb_each(p.headings) e
          where e.key = any(${NAME_HEADINGS as unknown as string[]}::text[])
            and jsonb_typeof(e.value -> 'value') = 'string' and btrim(e.value ->> 'value') <> ''
          -- The registry's own names (search records, change files) before a name an operator gave.
          order by e.key = 'short_name', e.value ->> 'source' = 'operator', (e.value ->> 'as_of')::date desc,
                   array_position(${NAME_HEADINGS as unknown as string[]}::text[], e.key)
          limit 1),
        (status_code, status_as_of) = (
          select (e.value ->> 'value')::int, (e.value ->> 'as_of')::date
          from jsonb_each(p.headings) e
          where e.key = any(${STATUS_HEADINGS as unknown as string[]}::text[])
            and (e.value ->> 'value') ~ '^\\d{1,9}$'
          order by (e.value ->> 'as_of')::date desc limit 1),
        seat = (
          select e.value ->> 'value'
          from jsonb_each(p.headings) e
          where e.key = any(${SEAT_HEADINGS as unknown as string[]}::text[])
            and jsonb_typeof(e.value -> 'value') = 'string'
          order by (e.value ->> 'as_of')::date desc limit 1)
      where p.tax_id = any(${taxIds as string[]}::text[])`;
}

const DAY = "^\\d{4}-\\d{2}-\\d{2}$";

/**
 * Rebuilds what change files tell the profiles of these businesses from every stored value: for
 * each heading, its value after the last day that has one, up to `lastComplete` (a value dated
 * later never reaches a profile), the last in the day's chained order; a day whose order is not
 * known gives null with order_ambiguous and the candidate values. The headings change files gave
 * before are dropped first, so a value that is gone (re-parsed, now unattributed, dated in the
 * future) does not stay; search records (the baseline, the latest record) fill in where no newer
 * value is known. A search record is dated by the day it was read in the registry's zone.
 */
export async function rebuildChangeFacts(
  tx: Tx,
  taxIds: readonly string[],
  lastComplete: string,
  registryTz: string,
): Promise<void> {
  if (taxIds.length === 0) return;
  await tx`
    insert into ${tx.t.business_profiles} (tax_id)
    select distinct tax_id from ${tx.t.change_values}
    where tax_id = any(${taxIds as string[]}::text[]) and change_date <= ${lastComplete}::date
    order by 1
    on conflict (tax_id) do nothing`;
  await tx`
    with last_day as (
      select cv.tax_id, cv.heading, max(cv.change_date) as day
      from ${tx.t.change_values} cv
      where cv.tax_id = any(${taxIds as string[]}::text[]) and cv.change_date <= ${lastComplete}::date
      group by cv.tax_id, cv.heading
    ), facts as (
      select cv.tax_id, cv.heading, l.day, bool_or(cv.order_ambiguous) as ambiguous,
             (array_agg(cv.new_value order by cv.day_order desc nulls last, cv.change_id desc))[1] as value,
             jsonb_agg(distinct coalesce(cv.new_value, 'null'::jsonb)) as candidates
      from last_day l
      join ${tx.t.change_values} cv on cv.tax_id = l.tax_id and cv.heading = l.heading and cv.change_date = l.day
      group by cv.tax_id, cv.heading, l.day
    ), told as (
      select tax_id, jsonb_object_agg(heading, case when ambiguous
               then jsonb_build_object('value', null, 'as_of', day, 'source', 'change_file',
                                       'order_ambiguous', true, 'candidates', candidates)
               else jsonb_build_object('value', value, 'as_of', day, 'source', 'change_file') end) as headings
      from facts group by tax_id
    )
    update ${tx.t.business_profiles} p set
      headings = coalesce((
        select jsonb_object_agg(k.key, k.fact) from (
          select distinct on (f.key) f.key, f.fact from (
            select e.key, e.value as fact, 0 as rank from jsonb_each(coalesce(t.headings, '{}'::jsonb)) e
            union all
            select e.key, e.value, 1 from jsonb_each(p.headings) e where e.value ->> 'source' is distinct from 'change_file'
            union all
            -- Search records under the heading names change files use (as recordHeadings does).
            select case e.key when 'full_name' then 'long_name' when 'status_code' then 'status' else e.key end, jsonb_build_object('value', e.value, 'as_of', ${dayIn(tx, tx`b.fetched_at`, registryTz)}, 'source', 'search'), 2
            from ${tx.t.businesses} b, jsonb_each(case when jsonb_typeof(b.record) = 'object' then b.record else '{}'::jsonb end) e
            where b.tax_id = p.tax_id
            union all
            select case e.key when 'full_name' then 'long_name' when 'status_code' then 'status' else e.key end, jsonb_build_object('value', e.value, 'as_of', p.baseline_as_of, 'source', 'search'), 3
            from jsonb_each(case when jsonb_typeof(p.baseline) = 'object' and p.baseline_as_of is not null
                                 then p.baseline else '{}'::jsonb end) e
          ) f
          order by f.key, case when f.fact ->> 'as_of' ~ ${DAY} then (f.fact ->> 'as_of')::date end desc nulls last, f.rank
        ) k), '{}'::jsonb),
      updated_at = now()
    from unnest(${taxIds as string[]}::text[]) as touched(tax_id)
    left join told t on t.tax_id = touched.tax_id
    where p.tax_id = touched.tax_id`;
  await summarise(tx, taxIds);
}
