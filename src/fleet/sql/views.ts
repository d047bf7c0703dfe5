/**
 * BI across the fleet: schema `regwatch_fleet` holds each data view of an account (the v_* views
 * readers may read, reader-classes.ts) once for every account, as `account` followed by the
 * view's own columns, a UNION ALL over the accounts' schemas. `migrate` rebuilds them whenever it
 * runs, so accounts added to or removed from the file appear or go at once.
 *
 * A fleet reader (`grant-reader ROLE --fleet`) is a role with USAGE on regwatch_fleet: it may read
 * the fleet views, and it is a reader of every account's schema (the same grants as
 * `grant-reader --account`), because some views call functions that read the account's data
 * tables as the caller. Private tables and columns (sign-in data, alert targets) are granted to no
 * reader, so no fleet view and no account schema shows them to it. Fleet readers are the roles
 * holding USAGE on the schema: nothing else records them, and a rebuild grants them the new views
 * and the new accounts' data.
 */
import { ACCOUNT_NAME } from "../../account-name.ts";
import type { Pool, Sql, Tx } from "../../db/connect.ts";
import { grantReaderIn } from "../../db/grants.ts";
import { DATA_VIEWS } from "../../db/reader-classes.ts";

export const FLEET_SCHEMA = "regwatch_fleet";

/** Serialises rebuilds of the fleet's views (two `migrate` at once). */
const FLEET_LOCK = 0x72_77_66_76; // "rwfv"

export interface FleetAccount {
  account: string;
  schema: string;
}

/**
 * Makes regwatch_fleet's views show exactly `accounts` (every one migrated, so their views have
 * the same columns), in one transaction; with no account, the views are dropped.
 */
export async function rebuildFleetViews(sql: Pool, accounts: readonly FleetAccount[]): Promise<void> {
  await sql.begin(async (txn) => {
    const tx = txn as Tx;
    const t = txn as unknown as Sql;
    await t`select pg_advisory_xact_lock(${FLEET_LOCK})`;
    await t`create schema if not exists ${t(FLEET_SCHEMA)}`;
    for (const view of DATA_VIEWS) {
      if (accounts.length === 0) {
        await t`drop view if exists ${t(FLEET_SCHEMA)}.${t(view)}`;
        continue;
      }
      // A view's text takes no parameters: the account's name (checked against ACCOUNT_NAME) is written in.
      const parts = accounts.map(
        (a) =>
          t`select ${t.unsafe(accountLiteral(a.account))}::text as account, v.* from ${t(a.schema)}.${t(view)} v`,
      );
      const body = parts.reduce((all, part) => t`${all} union all ${part}`);
      // Replaced in place when its columns stay; dropped and made anew when a migration changed them.
      await tx
        .savepoint(async (sp) => {
          await sp`create or replace view ${sp(FLEET_SCHEMA)}.${sp(view)} as ${body}`;
        })
        .catch(async () => {
          await t`drop view if exists ${t(FLEET_SCHEMA)}.${t(view)}`;
          await t`create view ${t(FLEET_SCHEMA)}.${t(view)} as ${body}`;
        });
    }
    for (const role of await fleetReaders(t)) await grantFleetViews(t, role, accounts);
  });
}

function accountLiteral(name: string): string {
  if (!ACCOUNT_NAME.test(name)) throw new Error(`"${name}" is not an account name regwatch uses`);
  return `'${name}'`;
}

/** The roles given the fleet's views (USAGE on regwatch_fleet, its owner aside). */
async function fleetReaders(tx: Sql): Promise<string[]> {
  const rows = await tx<{ role: string }[]>`
    select r.rolname as role
    from pg_namespace n cross join lateral aclexplode(n.nspacl) a join pg_roles r on r.oid = a.grantee
    where n.nspname = ${FLEET_SCHEMA} and a.privilege_type = 'USAGE' and a.grantee <> n.nspowner
    order by r.rolname`;
  return rows.map((r) => r.role);
}

/**
 * Gives `role` the fleet's views and the data of every account's schema it cannot read yet. The
 * views must exist (rebuildFleetViews).
 */
async function grantFleetViews(tx: Sql, role: string, accounts: readonly FleetAccount[]): Promise<void> {
  await tx`grant usage on schema ${tx(FLEET_SCHEMA)} to ${tx(role)}`;
  await tx`grant select on all tables in schema ${tx(FLEET_SCHEMA)} to ${tx(role)}`;
  for (const { schema } of accounts) {
    const [row] = await tx<{ reads: boolean }[]>`
      select has_schema_privilege(${role}, ${schema}, 'USAGE') as reads`;
    if (!row?.reads) await grantReaderIn(tx, role, schema);
  }
}

/** `grant-reader ROLE --fleet`: the views (rebuilt first) and every account's data. */
export async function grantFleetReader(
  sql: Pool,
  role: string,
  accounts: readonly FleetAccount[],
): Promise<void> {
  await rebuildFleetViews(sql, accounts);
  await sql.begin(async (tx) => {
    const t = tx as unknown as Sql;
    await grantFleetViews(t, role, accounts);
    // Already a reader of some accounts: their grants are applied again, as the classification says.
    for (const { schema } of accounts) await grantReaderIn(t, role, schema);
  });
}
