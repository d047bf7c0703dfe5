/**
 * What the console's search box finds among the names regwatch already holds, before any request
 * to the registry: the registry's own names (profiles, search records) and the names people and
 * files gave (given_names). Matched as the registry matches: at the start of a word, accents and
 * case ignored. Registry names come first, then given ones.
 */
import type { Sql } from "../../db/connect.ts";

export interface StoredNameHit {
  taxId: string;
  /** The registry's name, when it has one. */
  name: string | null;
  /** The newest given name, when the registry has none. */
  givenName: string | null;
  givenSource: string | null;
  registrationNumber: string | null;
}

const FROM = "áàâäãåéèêëíìîïóòôöõőúùûüűçñ";
const TO = "aaaaaaeeeeiiiiooooooouuuuucn";

/** Text folded as the SQL folds it: lower case, accents dropped. */
export function foldName(text: string): string {
  let out = "";
  for (const ch of text.toLowerCase()) {
    const at = FROM.indexOf(ch);
    out += at < 0 ? ch : TO[at];
  }
  return out;
}

/** Each word of `term` must start a word of the name (the registry's rule). */
function wordPattern(term: string): string[] {
  return foldName(term)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== "")
    .map((w) => `(^|[^[:alnum:]])${w.replace(/[\\^$.|?*+()[\]{}]/g, "\\$&")}`);
}

export async function searchStoredNames(sql: Sql, term: string, limit: number): Promise<StoredNameHit[]> {
  const patterns = wordPattern(term);
  if (patterns.length === 0) return [];
  return sql<StoredNameHit[]>`
    with named as (
      select p.tax_id, p.name, 0 as rank from ${sql.t.business_profiles} p
      where p.name is not null and p.name_source is distinct from 'operator'
      union all
      select b.tax_id, n.name, 0 from ${sql.t.businesses} b
      cross join lateral (values (b.full_name), (b.short_name)) n(name) where n.name is not null
      union all
      select g.tax_id, g.name, 1 from ${sql.t.given_names} g
    ), matched as (
      select tax_id, min(rank) as rank from named
      where (select bool_and(translate(lower(named.name), ${FROM}, ${TO}) ~ pattern)
             from unnest(${patterns}::text[]) pattern)
      group by tax_id
    )
    select m.tax_id as "taxId",
           coalesce(case when p.name_source is distinct from 'operator' then p.name end, b.full_name, b.short_name) as name,
           g.name as "givenName", g.source as "givenSource",
           coalesce(p.registration_number, b.registration_number) as "registrationNumber"
    from matched m
    left join ${sql.t.business_profiles} p on p.tax_id = m.tax_id
    left join ${sql.t.businesses} b on b.tax_id = m.tax_id
    left join lateral (select name, source from ${sql.t.given_names} where tax_id = m.tax_id
                       order by given_at desc limit 1) g on true
    order by m.rank, 2 nulls last, m.tax_id
    limit ${limit}`;
}

/** Businesses whose registration number regwatch holds (profiles, search records). */
export async function findByRegistrationNumber(sql: Sql, regNumber: string): Promise<string[]> {
  const rows = await sql<{ taxId: string }[]>`
    select tax_id as "taxId" from ${sql.t.business_profiles} where registration_number = ${regNumber}
    union
    select tax_id from ${sql.t.businesses}
    where registration_number = ${regNumber}
       or exists (select 1 from jsonb_array_elements(case when jsonb_typeof(records) = 'array' then records else '[]'::jsonb end) r
                  where r ->> 'registration_number' = ${regNumber})
    order by 1 limit 20`;
  return rows.map((r) => r.taxId);
}
