/**
 * Watched businesses the registry has not named yet, with what regwatch holds that a search could
 * find them by: a registration number (from a change file), an account a payment batch paid them
 * on, a name a person or a file gave them. A business the search has already returned is left
 * out: searching it again would not name it.
 */
import type { Sql } from "../../db/connect.ts";

export interface UnnamedBusiness {
  taxId: string;
  registrationNumber: string | null;
  bankAccount: string | null;
  givenName: string | null;
}

/** Most businesses one read returns; the page says when there are more. */
export const UNNAMED_READ_MAX = 5000;

/** The unnamed watched businesses (at most `limit`), in tax number order, and how many there are. */
export async function readUnnamedWatched(
  sql: Sql,
  limit = UNNAMED_READ_MAX,
): Promise<{ rows: UnnamedBusiness[]; total: number }> {
  const rows = await sql<(UnnamedBusiness & { total: number })[]>`
    with unnamed as (
      select distinct i.tax_id
      from ${sql.t.watched_items} i
      join ${sql.t.watch_lists} l on l.list_key = i.list_key and l.deleted_at is null
      left join ${sql.t.business_profiles} p on p.tax_id = i.tax_id
      left join ${sql.t.businesses} b on b.tax_id = i.tax_id
      where b.tax_id is null
        and nullif(btrim(case when p.name_source is distinct from 'operator' then p.name end), '') is null
    )
    select u.tax_id as "taxId", p.registration_number as "registrationNumber",
           a.bank_account as "bankAccount", g.name as "givenName",
           (count(*) over ())::int as total
    from unnamed u
    left join ${sql.t.business_profiles} p on p.tax_id = u.tax_id
    left join lateral (
      select c.bank_account from ${sql.t.payment_checks} c
      where c.tax_base = u.tax_id and c.bank_account <> ''
      order by c.checked_at desc limit 1) a on true
    left join lateral (
      select name from ${sql.t.given_names}
      where tax_id = u.tax_id order by given_at desc, source limit 1) g on true
    order by u.tax_id
    limit ${limit}`;
  return {
    rows: rows.map(({ total: _total, ...row }) => row),
    total: rows[0]?.total ?? 0,
  };
}
