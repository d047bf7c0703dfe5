/**
 * What the payment check reads (businesses, profiles, v_bank_accounts, watched items) and the
 * one thing it may write (payment_checks, only with --record). Row types are this layer's own.
 */
import type { Sql } from "./connect.ts";

export interface BusinessFactsRow {
  taxId: string;
  name: string | null;
  statusCode: number | null;
}

export interface BankAccountRow {
  taxId: string;
  account: string;
  currentlyRegistered: boolean;
  addedOn: string | null;
}

/**
 * Businesses with any record (profile or search record) among `taxIds`. The status is the
 * newer of the profile's and the search record's.
 */
export async function loadBusinessFacts(sql: Sql, taxIds: readonly string[]): Promise<BusinessFactsRow[]> {
  if (taxIds.length === 0) return [];
  return sql<BusinessFactsRow[]>`
    with ids as (select distinct unnest(${taxIds as string[]}::text[]) as tax_id)
    select ids.tax_id as "taxId",
           coalesce(p.name, b.full_name) as name,
           case when p.status_code is not null
                 and (b.status_code is null or p.status_as_of >= b.fetched_at::date)
                then p.status_code else coalesce(b.status_code, p.status_code) end as "statusCode"
    from ids
    left join regwatch.business_profiles p on p.tax_id = ids.tax_id
    left join regwatch.businesses b on b.tax_id = ids.tax_id
    where p.tax_id is not null or b.tax_id is not null`;
}

/** Those of `taxIds` on a remote watch list that still exists. */
export async function loadWatchedTaxIds(sql: Sql, taxIds: readonly string[]): Promise<string[]> {
  if (taxIds.length === 0) return [];
  const rows = await sql<{ taxId: string }[]>`
    select distinct w.tax_id as "taxId" from regwatch.watched_items w
    join regwatch.watch_lists l on l.list_key = w.list_key and l.deleted_at is null
    where w.tax_id = any(${taxIds as string[]}::text[])`;
  return rows.map((r) => r.taxId);
}

/**
 * Businesses whose current account lists (search record, profile, a change's new value) hold one
 * of these canonical accounts, spelt as the registry spells them (24 digits in groups, or the
 * 16-digit form), as objects or plain strings. Found through the GIN indexes, so a large cache
 * is not scanned; the exact comparison happens on the canonical form afterwards.
 */
async function businessesHolding(sql: Sql, accounts: readonly string[]): Promise<string[]> {
  if (accounts.length === 0) return [];
  const spellings = accounts.flatMap((a) => (a.endsWith("-00000000") ? [a, a.slice(0, 17)] : [a]));
  const probes = spellings.flatMap((a) => [JSON.stringify([{ bank_account: a }]), JSON.stringify([a])]);
  const rows = await sql<{ taxId: string }[]>`
    with probes as (select p::jsonb as j from unnest(${probes}::text[]) p)
    select b.tax_id as "taxId" from probes join regwatch.businesses b on b.record -> 'bank_accounts' @> probes.j
    union
    select p.tax_id from probes
    join regwatch.business_profiles p on p.headings -> 'bank_accounts' -> 'value' @> probes.j
    union
    select cv.tax_id from probes
    join regwatch.change_values cv on cv.heading = 'bank_accounts' and cv.new_value @> probes.j`;
  return rows.map((r) => r.taxId);
}

/**
 * Every business-account pair (as regwatch.v_bank_accounts shows it) of these businesses or of
 * these canonical accounts.
 */
export async function loadBankAccounts(
  sql: Sql,
  taxIds: readonly string[],
  accounts: readonly string[],
): Promise<BankAccountRow[]> {
  if (taxIds.length === 0 && accounts.length === 0) return [];
  const businesses = [...new Set([...taxIds, ...(await businessesHolding(sql, accounts))])];
  return sql<BankAccountRow[]>`
    select tax_id as "taxId", bank_account as account, currently_registered as "currentlyRegistered",
           to_char(added_on, 'YYYY-MM-DD') as "addedOn"
    from regwatch.bank_accounts_of_businesses(${businesses}::text[])
    where tax_id = any(${taxIds as string[]}::text[]) or bank_account = any(${accounts as string[]}::text[])`;
}

export interface PaymentCheckRecord {
  line: number;
  taxId: string;
  bankAccount: string;
  verdict: string;
  detail: string | null;
  amount: string | null;
  currency: string | null;
  reference: string | null;
}

/** Keeps one checked batch; returns its id. */
export async function recordPaymentChecks(sql: Sql, rows: readonly PaymentCheckRecord[]): Promise<string> {
  const [batch] = await sql<{ id: string }[]>`select gen_random_uuid()::text as id`;
  const batchId = batch!.id;
  if (rows.length === 0) return batchId;
  await sql`
    insert into regwatch.payment_checks ${sql(
      rows.map((r) => ({
        batch_id: batchId,
        line: r.line,
        tax_id: r.taxId,
        bank_account: r.bankAccount,
        verdict: r.verdict,
        detail: r.detail,
        amount: r.amount,
        currency: r.currency,
        reference: r.reference,
      })),
    )}`;
  return batchId;
}
