/**
 * What the payment check reads (businesses, profiles, v_bank_accounts, watched items, the state
 * of bank_accounts changes). Recorded checks are written by payment-checks.ts. A change's evidence
 * has the shape the guard's logic declares (src/changes/evidence.ts); the other rows are this file's.
 */
import type { ChangeEvidence } from "../../changes/evidence.ts";
import { newestStatus, newestStatusColumns, type StatusSource } from "../../changes/sql/newest-status.ts";
import type { Sql } from "../../db/connect.ts";
import { inOneRead } from "../../db/one-read.ts";
import { NAME_HEADINGS } from "../../parse/sql/business-profiles.ts";

export interface BusinessFactsRow {
  taxId: string;
  name: string | null;
  statusCode: number | null;
  /** The day of the status's evidence and where it came from (changes/sql/newest-status.ts). */
  statusOn: string | null;
  statusSource: StatusSource | null;
  type: string | null;
}

export interface BankAccountRow {
  taxId: string;
  account: string;
  currentlyRegistered: boolean;
  addedOn: string | null;
  addedSource: string | null;
  /** Of an account no longer registered: the day of the first record or change after it that no longer lists it. */
  removedOn: string | null;
}

/**
 * Businesses with any record (profile or search record) among `taxIds`. The status is the one of
 * the newest dated evidence (change files or search records), as every surface reads it.
 */
export async function loadBusinessFacts(
  sql: Sql,
  taxIds: readonly string[],
  timeZone: string,
): Promise<BusinessFactsRow[]> {
  if (taxIds.length === 0) return [];
  return sql<BusinessFactsRow[]>`
    with ids as (select distinct unnest(${taxIds as string[]}::text[]) as tax_id)
    select ids.tax_id as "taxId",
           coalesce(p.name, b.full_name) as name,
           ${newestStatusColumns(sql)},
           coalesce(b.type, p.type) as type
    from ids
    left join ${sql.t.business_profiles} p on p.tax_id = ids.tax_id
    left join ${sql.t.businesses} b on b.tax_id = ids.tax_id
    left join lateral (${newestStatus(sql, sql`ids.tax_id`, timeZone)}) ns on true
    where p.tax_id is not null or b.tax_id is not null`;
}

/** Those of `taxIds` on a remote watch list that still exists. */
export async function loadWatchedTaxIds(sql: Sql, taxIds: readonly string[]): Promise<string[]> {
  if (taxIds.length === 0) return [];
  const rows = await sql<{ taxId: string }[]>`
    select distinct w.tax_id as "taxId" from ${sql.t.watched_items} w
    join ${sql.t.watch_lists} l on l.list_key = w.list_key and l.deleted_at is null
    where w.tax_id = any(${taxIds as string[]}::text[])`;
  return rows.map((r) => r.taxId);
}

/**
 * Which businesses' account lists (search record, profile, a change's new or old value) hold
 * each of these canonical accounts, spelt as the registry spells them (24 digits in groups, or the
 * 16-digit form), as objects or plain strings: one row per account and business. Found through the
 * GIN indexes, so a large cache is not scanned; the exact comparison happens on the canonical form
 * afterwards (v_bank_accounts).
 */
export async function loadAccountHolders(
  sql: Sql,
  accounts: readonly string[],
): Promise<{ account: string; taxId: string }[]> {
  if (accounts.length === 0) return [];
  const spellings = accounts.flatMap((a) =>
    a.endsWith("-00000000")
      ? [
          [a, a],
          [a, a.slice(0, 17)],
        ]
      : [[a, a]],
  );
  const probes = spellings.flatMap(([account, spelt]) => [
    [account!, JSON.stringify([{ bank_account: spelt }])],
    [account!, JSON.stringify([spelt])],
  ]);
  return sql<{ account: string; taxId: string }[]>`
    with probes as (
      select a as account, p::jsonb as j from unnest(${probes.map((p) => p[0]!)}::text[], ${probes.map((p) => p[1]!)}::text[]) as t(a, p))
    select probes.account, b.tax_id as "taxId" from probes
    join ${sql.t.businesses} b on b.record -> 'bank_accounts' @> probes.j
    union
    select probes.account, p.tax_id from probes
    join ${sql.t.business_profiles} p on p.headings -> 'bank_accounts' -> 'value' @> probes.j
    union
    select probes.account, cv.tax_id from probes
    join ${sql.t.change_values} cv on cv.heading = 'bank_accounts' and cv.new_value @> probes.j
    union
    -- A business that replaced the account: the row pays its removed account (account_removed).
    select probes.account, cv.tax_id from probes
    join ${sql.t.change_values} cv on cv.heading = 'bank_accounts' and cv.old_value @> probes.j`;
}

/**
 * Every business-account pair (as v_bank_accounts shows it) of these businesses. An account no
 * longer registered gets the day it was removed: the first change with known accounts, or search
 * record, after the last day that listed it.
 */
export async function loadBankAccountsOf(sql: Sql, taxIds: readonly string[]): Promise<BankAccountRow[]> {
  if (taxIds.length === 0) return [];
  return sql<BankAccountRow[]>`
    select a.tax_id as "taxId", a.bank_account as account, a.currently_registered as "currentlyRegistered",
           to_char(a.added_on, 'YYYY-MM-DD') as "addedOn", a.added_source as "addedSource",
           case when not a.currently_registered then to_char(least(
             (select min(cv.change_date) from ${sql.t.change_values} cv
              where cv.tax_id = a.tax_id and cv.heading = 'bank_accounts' and cv.change_date > a.last_seen
                and jsonb_typeof(cv.new_value) in ('array', 'object', 'string')),
             (select min(${sql.t.registry_day}(s.seen_at)) from ${sql.t.search_bank_accounts} s
              where s.tax_id = a.tax_id and ${sql.t.registry_day}(s.seen_at) > a.last_seen),
             (select ${sql.t.registry_day}(b.fetched_at) from ${sql.t.businesses} b
              where b.tax_id = a.tax_id and ${sql.t.registry_day}(b.fetched_at) > a.last_seen)
           ), 'YYYY-MM-DD') end as "removedOn"
    from ${sql.t.bank_accounts_of_businesses}(${taxIds as string[]}::text[]) a`;
}

/**
 * Runs some of the payment check's reads in one read-only transaction (one state of the database)
 * without JIT compilation (the account history's estimated cost is far above jit_above_cost, and
 * compiling it took longer than running it: about 2 s of a 5,000-row chunk's 4 s). When a search
 * record was read, and so when an account was added or removed, is a day of the registry's calendar
 * (registry_day(), migration 0048), as the check's own day is (in the server's zone, UTC say, a
 * record read at 00:30 in Budapest fell on the day before); the transaction's TimeZone is
 * `timeZone` as well, for any day a statement would still take from it.
 */
export function withCheckReads<T>(sql: Sql, timeZone: string, fn: (sql: Sql) => Promise<T>): Promise<T> {
  return inOneRead(sql, fn, { timeZone });
}

/**
 * Every name the registry gives these businesses: the search record's full and short names, the
 * profile's name headings, and the old and new values of name changes dated on or after `since`
 * (so a name the business bore during the hold period still counts). One row per business and name.
 */
export async function loadBusinessNames(
  sql: Sql,
  taxIds: readonly string[],
  since: string,
): Promise<{ taxId: string; name: string }[]> {
  if (taxIds.length === 0) return [];
  const headings = NAME_HEADINGS as unknown as string[];
  return sql<{ taxId: string; name: string }[]>`
    select distinct "taxId", name from (
      select b.tax_id as "taxId", n.name from ${sql.t.businesses} b
      cross join lateral (values (b.full_name), (b.short_name)) n(name)
      where b.tax_id = any(${taxIds as string[]}::text[])
      union all
      select p.tax_id, p.headings -> h.key ->> 'value' from ${sql.t.business_profiles} p
      cross join unnest(${headings}::text[]) h(key)
      where p.tax_id = any(${taxIds as string[]}::text[])
        and jsonb_typeof(p.headings -> h.key -> 'value') = 'string'
      union all
      select cv.tax_id, v.value #>> '{}' from ${sql.t.change_values} cv
      cross join lateral (values (cv.old_value), (cv.new_value)) v(value)
      where cv.tax_id = any(${taxIds as string[]}::text[]) and cv.heading = any(${headings}::text[])
        and cv.change_date >= ${since}::date and jsonb_typeof(v.value) = 'string'
    ) names
    where name is not null and btrim(name) <> ''`;
}

/**
 * The bank_accounts changes of these businesses whose values are not known: the file is not
 * fetched or not parsed, or gives no readable value for the change, or the day's order of the
 * heading is ambiguous. `superseded`: a search record read after the change (after regwatch saw
 * the change, or from the second day after it, since the registry loads a day's changes the
 * next morning), or a later change with known values, lists the accounts that hold after it.
 */
export async function loadChangeEvidence(sql: Sql, taxIds: readonly string[]): Promise<ChangeEvidence[]> {
  if (taxIds.length === 0) return [];
  return sql<ChangeEvidence[]>`
    select c.tax_id as "taxId", to_char(c.change_date, 'YYYY-MM-DD') as "changeDate",
           f.status as "fileStatus", f.parse_status as "parseStatus",
           f.last_error as "fileError", f.parse_error as "parseError",
           cv.change_id is not null as "hasValue",
           coalesce(jsonb_typeof(cv.new_value) in ('array', 'object', 'string'), false) as "valueReadable",
           coalesce(cv.order_ambiguous, false) as ambiguous,
           exists (
             select 1 from ${sql.t.search_bank_accounts} s
             where s.tax_id = c.tax_id
               and (s.seen_at >= c.first_seen_at or ${sql.t.registry_day}(s.seen_at) > c.change_date + 1)
           ) or exists (
             select 1 from ${sql.t.businesses} b
             where b.tax_id = c.tax_id and ${sql.t.record_bank_accounts}(b.record) is not null
               and (b.fetched_at >= c.first_seen_at or ${sql.t.registry_day}(b.fetched_at) > c.change_date + 1)
           ) or exists (
             select 1 from ${sql.t.change_values} k
             where k.tax_id = c.tax_id and k.heading = 'bank_accounts' and k.change_date > c.change_date
               and not k.order_ambiguous and jsonb_typeof(k.new_value) in ('array', 'object', 'string')
           ) as superseded
    from ${sql.t.changes} c
    left join ${sql.t.change_files} f on f.path = c.path
    left join ${sql.t.change_values} cv on cv.change_id = c.id and cv.heading = 'bank_accounts'
    where c.tax_id = any(${taxIds as string[]}::text[]) and 'bank_accounts' = any(c.changed_headings)
      and not (f.parse_status is not distinct from 'parsed' and cv.change_id is not null
               and not cv.order_ambiguous
               and coalesce(jsonb_typeof(cv.new_value) in ('array', 'object', 'string'), false))
    order by c.change_date desc, c.id`;
}

export interface PayeeRecordRow {
  taxId: string;
  readOn: string | null;
  registrationNumber: string | null;
}

/**
 * When each business's newest search record was read (as a day in `timeZone`) and its
 * registration number (the record's, else the profile's); businesses nothing knows are absent.
 */
export async function loadPayeeRecords(
  sql: Sql,
  taxIds: readonly string[],
  timeZone: string,
): Promise<PayeeRecordRow[]> {
  if (taxIds.length === 0) return [];
  return sql<PayeeRecordRow[]>`
    with ids as (select distinct unnest(${taxIds as string[]}::text[]) as tax_id)
    select ids.tax_id as "taxId",
           to_char(b.fetched_at at time zone ${timeZone}, 'YYYY-MM-DD') as "readOn",
           coalesce(b.registration_number, p.registration_number) as "registrationNumber"
    from ids
    left join ${sql.t.businesses} b on b.tax_id = ids.tax_id
    left join ${sql.t.business_profiles} p on p.tax_id = ids.tax_id
    where b.tax_id is not null or p.tax_id is not null`;
}
