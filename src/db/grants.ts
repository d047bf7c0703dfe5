/**
 * Read access to a regwatch schema for BI roles: the data tables and views in full, the tables
 * with private columns without them, nothing of the private tables (src/db/reader-classes.ts).
 * A reader role is recorded in `reader_roles`; the migrator applies every recorded role's grants
 * again after a migration, so a data table added later reaches the readers while a private one
 * never does. No default privileges are used: they would hand every future table, private ones
 * included, to the reader. Run by the schema's owner (who owns the tables and may grant on them).
 */
import { InputError } from "../errors.ts";
import { DEFAULT_SCHEMA, type Sql } from "./connect.ts";
import { type ReaderGrantPlan, readerGrantPlan } from "./reader-classes.ts";

/** Records `role` as a reader of `schema` and gives it exactly what the classification allows. */
export async function grantReader(sql: Sql, role: string, schema = DEFAULT_SCHEMA): Promise<ReaderGrantPlan> {
  await requireRole(sql, role);
  return sql.begin((tx) => grantReaderIn(tx as unknown as Sql, role, schema));
}

/** The same, inside the caller's transaction, for a role known to exist. */
export async function grantReaderIn(tx: Sql, role: string, schema: string): Promise<ReaderGrantPlan> {
  await tx`insert into ${tx(schema)}.reader_roles (role) values (${role}) on conflict (role) do nothing`;
  return applyReaderGrants(tx, role, schema);
}

/** Throws InputError unless `role` exists. */
export async function requireRole(sql: Sql, role: string): Promise<void> {
  const [found] = await sql<{ exists: boolean }[]>`
    select exists(select 1 from pg_roles where rolname = ${role}) as exists`;
  if (!found?.exists) {
    throw new InputError(
      `role "${role}" does not exist; create it first, e.g. CREATE ROLE "${role}" LOGIN PASSWORD '...'`,
    );
  }
}

/**
 * Applies the grants of every recorded reader role that still exists, inside the caller's
 * transaction (the migrator's, after migrations). Returns the roles it applied them to.
 */
export async function reapplyReaderGrantsIn(tx: Sql, schema: string): Promise<string[]> {
  const roles = await tx<{ role: string }[]>`
    select r.role from ${tx(schema)}.reader_roles r join pg_roles p on p.rolname = r.role order by r.role`;
  for (const { role } of roles) await applyReaderGrants(tx, role, schema);
  return roles.map((r) => r.role);
}

/**
 * Takes every privilege on the schema's tables and views from `role`, then grants what the
 * classification allows; run inside a transaction, so the reader never sees a state in between.
 * Default privileges an earlier release gave the role (SELECT on every future table) are revoked.
 */
async function applyReaderGrants(tx: Sql, role: string, schema: string): Promise<ReaderGrantPlan> {
  const relations = await tx<{ name: string }[]>`
    select c.relname as name from pg_class c
    where c.relnamespace = to_regnamespace(${schema}) and c.relkind in ('r', 'p', 'v', 'm')`;
  const columns = await tx<{ table: string; column: string }[]>`
    select c.relname as table, a.attname as column
    from pg_class c join pg_attribute a on a.attrelid = c.oid
    where c.relnamespace = to_regnamespace(${schema}) and c.relkind in ('r', 'p')
      and a.attnum > 0 and not a.attisdropped
    order by c.relname, a.attnum`;
  const plan = readerGrantPlan(
    relations.map((r) => r.name),
    (table) => columns.filter((c) => c.table === table).map((c) => c.column),
  );
  await tx`grant usage on schema ${tx(schema)} to ${tx(role)}`;
  // Revoking a table's privilege revokes its column privileges too.
  await tx`revoke all on all tables in schema ${tx(schema)} from ${tx(role)}`;
  await tx`alter default privileges in schema ${tx(schema)} revoke all on tables from ${tx(role)}`;
  for (const name of plan.full) await tx`grant select on ${tx(schema)}.${tx(name)} to ${tx(role)}`;
  for (const { table, columns: allowed } of plan.columns) {
    if (allowed.length > 0)
      await tx`grant select (${tx(allowed)}) on ${tx(schema)}.${tx(table)} to ${tx(role)}`;
  }
  return plan;
}
