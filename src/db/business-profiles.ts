/**
 * Writes what a source tells about businesses into business_profiles. Each heading keeps the
 * newest value (an older as_of never overwrites a newer one); name, status and seat are then
 * read back out of the headings so they always agree with them.
 */
import type postgres from "postgres";
import type { Sql } from "./connect.ts";

type Tx = postgres.TransactionSql;

export type ProfileSource = "search" | "operator" | "change_file";

/** One heading's value with the day it is known to hold from and where it came from. */
export interface HeadingFact {
  value: unknown;
  as_of: string;
  source: ProfileSource;
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

/** Headings that carry a name, best first; the SQL picks the newest, short names only as a fallback. */
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
      insert into regwatch.business_profiles (tax_id)
      select unnest(${taxIds}::text[]) order by 1
      on conflict (tax_id) do nothing`;
  await tx`
      update regwatch.business_profiles p set
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
  await tx`
      update regwatch.business_profiles p set
        (name, name_as_of, name_source) = (
          select e.value ->> 'value', (e.value ->> 'as_of')::date, e.value ->> 'source'
          from jsonb_each(p.headings) e
          where e.key = any(${NAME_HEADINGS as unknown as string[]}::text[])
            and jsonb_typeof(e.value -> 'value') = 'string' and btrim(e.value ->> 'value') <> ''
          order by e.key = 'short_name', (e.value ->> 'as_of')::date desc,
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
      where p.tax_id = any(${taxIds}::text[])`;
}
