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
import type { Pool, Sql } from "../../db/connect.ts";
import { grantReaderIn } from "../../db/grants.ts";
import { DATA_VIEWS } from "../../db/reader-classes.ts";
import {
  digest,
  FLEET_PARTS_SCHEMA,
  FLEET_SCHEMA,
  pieceName,
  piecesOf,
  pieceView,
  union,
  viewColumns,
  viewMarks,
  writeView,
} from "./view-pieces.ts";

export { FLEET_PARTS_SCHEMA, FLEET_SCHEMA } from "./view-pieces.ts";

/** Serialises rebuilds of the fleet's views (two `migrate` at once). */
const FLEET_LOCK = 0x72_77_66_76; // "rwfv"

export interface FleetAccount {
  account: string;
  schema: string;
}

/**
 * Makes regwatch_fleet's views show exactly `accounts` (every one migrated, so their views have
 * the same columns); with no account, the views are dropped. Each fleet view is a UNION ALL of
 * its pieces (FLEET_PARTS_SCHEMA), each piece a UNION ALL over the accounts whose name falls in it
 * (pieceOf). A piece or view is written only when what it should show differs from the mark its
 * comment holds (its columns' and its accounts' digest): adding an account rewrites one piece of
 * each view (and the view itself when the piece is new), never the others; `migrate` with the
 * file unchanged writes nothing. Each write is a transaction of its own under the fleet's lock:
 * a view made over a thousand accounts at once would hold a lock on each of their views until it
 * committed, and thirteen of them more locks than Postgres's lock table holds by default.
 */
export async function rebuildFleetViews(sql: Pool, accounts: readonly FleetAccount[]): Promise<void> {
  const { marks, columns } = await locked(sql, async (t) => {
    await t`create schema if not exists ${t(FLEET_SCHEMA)}`;
    await t`create schema if not exists ${t(FLEET_PARTS_SCHEMA)}`;
    const columns =
      accounts.length === 0 ? new Map<string, string>() : await viewColumns(t, accounts[0]!.schema);
    return { marks: await viewMarks(t), columns };
  });
  const pieces = piecesOf(accounts);
  const drop = (schema: string, name: string) =>
    locked(sql, (t) => t`drop view if exists ${t(schema)}.${t(name)}`);
  for (const view of DATA_VIEWS) {
    const own = [...marks.keys()].filter((name) => pieceView(name) === view);
    const cols = digest(columns.get(view) ?? "");
    // No account, first built, its columns changed by a migration, or one UNION over every account (before pieces).
    if (accounts.length === 0 || !(marks.get(view) ?? "").startsWith(`${cols}:`)) {
      if (marks.has(view)) await drop(FLEET_SCHEMA, view);
      for (const name of own) {
        await drop(FLEET_PARTS_SCHEMA, name);
        marks.delete(name);
      }
      if (accounts.length === 0) continue;
    }
    const used: string[] = [];
    for (const [piece, members] of pieces) {
      const name = pieceName(view, piece);
      used.push(name);
      const mark = `${cols}:${digest(members.map((a) => `${a.account}=${a.schema}`).join(","))}`;
      if (marks.get(name) === mark) continue;
      await locked(sql, (t) => {
        const parts = members.map(
          (a) =>
            // A view's text takes no parameters: the account's name (checked against ACCOUNT_NAME) is written in.
            t`select ${t.unsafe(accountLiteral(a.account))}::text as account, v.* from ${t(a.schema)}.${t(view)} v`,
        );
        return writeView(t, FLEET_PARTS_SCHEMA, name, union(t, parts), mark);
      });
    }
    const mark = `${cols}:${digest(used.join(","))}`;
    if (marks.get(view) !== mark)
      await locked(sql, (t) => {
        const parts = used.map((name) => t`select * from ${t(FLEET_PARTS_SCHEMA)}.${t(name)}`);
        return writeView(t, FLEET_SCHEMA, view, union(t, parts), mark);
      });
    // Pieces whose every account left the file, no longer read by the view.
    for (const name of own) if (!used.includes(name) && marks.has(name)) await drop(FLEET_PARTS_SCHEMA, name);
  }
  await locked(sql, async (t) => {
    for (const role of await fleetReaders(t)) await grantFleetViews(t, role, accounts);
  });
}

/** `body` in a transaction holding the lock of the fleet's views (two `migrate` at once take turns). */
async function locked<T>(sql: Pool, body: (t: Sql) => Promise<T>): Promise<T> {
  const [result] = await sql.begin(async (txn) => {
    const t = txn as unknown as Sql;
    await t`select pg_advisory_xact_lock(${FLEET_LOCK})`;
    return [await body(t)];
  });
  return result as T;
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
  // One statement finds the accounts' schemas the role cannot read yet (those added since).
  const unread = await tx<{ schema: string }[]>`
    select s as schema from unnest(${accounts.map((a) => a.schema)}::text[]) s
    where not has_schema_privilege(${role}, s, 'USAGE')`;
  for (const { schema } of unread) await grantReaderIn(tx, role, schema);
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
