/**
 * Accounts confirmed out of band (payee_verifications): recorded by `payments verify`
 * or the console, listed, and read by the payment check. Rows are only ever added.
 */
import type { Sql } from "../../db/connect.ts";

export interface VerificationRow {
  id: number;
  taxId: string;
  account: string;
  verifiedBy: string;
  verifiedAt: Date;
  /** verified_at's day in the time zone asked for. */
  verifiedOn: string;
  note: string | null;
}

const COLUMNS = (sql: Sql, timeZone: string) => sql`
  id::int as id, tax_id as "taxId", bank_account as account, verified_by as "verifiedBy",
  verified_at as "verifiedAt", to_char(verified_at at time zone ${timeZone}, 'YYYY-MM-DD') as "verifiedOn", note`;

export async function insertVerification(
  sql: Sql,
  v: { taxId: string; account: string; by: string; note: string | null; at: Date },
  timeZone: string,
): Promise<VerificationRow> {
  const [row] = await sql<VerificationRow[]>`
    insert into ${sql.t.payee_verifications} (tax_id, bank_account, verified_by, verified_at, note)
    values (${v.taxId}, ${v.account}, ${v.by}, ${v.at}, ${v.note})
    returning ${COLUMNS(sql, timeZone)}`;
  return row!;
}

/** The newest verification of each of these businesses' accounts. */
export async function loadLatestVerifications(
  sql: Sql,
  taxIds: readonly string[],
  timeZone: string,
): Promise<VerificationRow[]> {
  if (taxIds.length === 0) return [];
  return sql<VerificationRow[]>`
    select distinct on (tax_id, bank_account) ${COLUMNS(sql, timeZone)}
    from ${sql.t.payee_verifications}
    where tax_id = any(${taxIds as string[]}::text[])
    order by tax_id, bank_account, verified_at desc, id desc`;
}

export interface VerificationFilter {
  taxId?: string | null;
  account?: string | null;
  /** At most this many, newest first. */
  limit?: number;
}

export async function selectVerifications(
  sql: Sql,
  filter: VerificationFilter,
  timeZone: string,
): Promise<VerificationRow[]> {
  return sql<VerificationRow[]>`
    select ${COLUMNS(sql, timeZone)} from ${sql.t.payee_verifications}
    where (${filter.taxId ?? null}::text is null or tax_id = ${filter.taxId ?? null})
      and (${filter.account ?? null}::text is null or bank_account = ${filter.account ?? null})
    order by verified_at desc, id desc
    limit ${filter.limit ?? 1000}`;
}
