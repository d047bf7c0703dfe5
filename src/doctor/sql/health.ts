/**
 * What `regwatch doctor` asks of the database, and nothing else: who we are connected as, which
 * migrations are not applied yet, whether this role may write (a write that is rolled back), and
 * which roles were given read access and what they cannot read. Every question is a read, or a
 * write undone in the same transaction: the doctor changes nothing. Reader roles: reader-health.ts.
 */
import { readFile } from "node:fs/promises";
import { DEFAULT_SCHEMA, type Sql } from "../../db/connect.ts";
import { MIGRATIONS_FOLDER, migrationsTableOf } from "../../db/migrate.ts";

export interface DatabaseIdentity {
  user: string;
  database: string;
  /** e.g. "17.6" */
  serverVersion: string;
}

export async function databaseIdentity(sql: Sql): Promise<DatabaseIdentity> {
  const [row] = await sql<DatabaseIdentity[]>`
    select current_user as "user", current_database() as database,
           current_setting('server_version') as "serverVersion"`;
  return row!;
}

/** Whether schema regwatch exists (the first migration creates it). */
export async function regwatchSchemaExists(sql: Sql): Promise<boolean> {
  const [row] = await sql<
    { exists: boolean }[]
  >`select to_regnamespace(${sql.schema}::text) is not null as exists`;
  return row?.exists ?? false;
}

export interface MigrationState {
  /** Migrations this build ships. */
  shipped: number;
  /** Migrations recorded as applied in the database. */
  applied: number;
  /** Tags of the shipped migrations the migrator would apply next, oldest first. */
  pending: string[];
}

/**
 * Pending is decided as the migrator decides it: a shipped migration is applied when its time
 * stamp is later than the newest one recorded, so the names listed are the ones it would run.
 */
export async function migrationState(sql: Sql, schema = DEFAULT_SCHEMA): Promise<MigrationState> {
  const journal = JSON.parse(await readFile(`${MIGRATIONS_FOLDER}/meta/_journal.json`, "utf8")) as {
    entries: { tag: string; when: number }[];
  };
  const tableName = migrationsTableOf(schema);
  const [table] = await sql<{ exists: boolean }[]>`
    select to_regclass(${`drizzle.${tableName}`}) is not null as exists`;
  let applied = 0;
  let newest = Number.NEGATIVE_INFINITY;
  if (table?.exists) {
    const [row] = await sql<{ n: number; newest: string | null }[]>`
      select count(*)::int as n, max(created_at)::text as newest from drizzle.${sql(tableName)}`;
    applied = row?.n ?? 0;
    if (row?.newest != null) newest = Number(row.newest);
  }
  return {
    shipped: journal.entries.length,
    applied,
    pending: journal.entries.filter((e) => e.when > newest).map((e) => e.tag),
  };
}

export interface WriteRights {
  /** Tables of schema regwatch on which this role lacks INSERT, UPDATE or DELETE, with what it lacks. */
  missing: { table: string; privileges: string[] }[];
  /** Sequences of schema regwatch this role may not use (an insert into its table would fail). */
  missingSequences: string[];
  /** The role owns schema regwatch or may create in it: later migrations can be applied by it. */
  canMigrate: boolean;
  /** The rolled-back write: undefined when it went through, else the server's message and SQLSTATE. */
  writeRefused?: { message: string; code: string | undefined };
}

/** Thrown inside the probe's transaction to undo its write. */
class RollBack extends Error {}

/**
 * Privileges as the catalogue grants them, and one real write rolled back: the catalogue cannot
 * tell a read-only server (a standby, default_transaction_read_only) from a writable one.
 */
export async function writeRights(sql: Sql): Promise<WriteRights> {
  const missing = await sql<{ table: string; privileges: string[] }[]>`
    select c.relname as table,
           array_remove(array[
             case when not has_table_privilege(c.oid, 'INSERT') then 'INSERT' end,
             case when not has_table_privilege(c.oid, 'UPDATE') then 'UPDATE' end,
             case when not has_table_privilege(c.oid, 'DELETE') then 'DELETE' end
           ], null) as privileges
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = ${sql.schema}::text and c.relkind in ('r', 'p')
      and not (has_table_privilege(c.oid, 'INSERT') and has_table_privilege(c.oid, 'UPDATE')
               and has_table_privilege(c.oid, 'DELETE'))
    order by c.relname`;
  const sequences = await sql<{ name: string }[]>`
    select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    -- The CASE keeps the planner from asking has_sequence_privilege about a relation that is not one.
    where n.nspname = ${sql.schema}::text
      and case when c.relkind = 'S' then not has_sequence_privilege(c.oid, 'USAGE') else false end
    order by c.relname`;
  const [schema] = await sql<{ can_migrate: boolean }[]>`
    select pg_has_role(n.nspowner, 'USAGE') or has_schema_privilege(n.oid, 'CREATE') as can_migrate
    from pg_namespace n where n.nspname = ${sql.schema}::text`;
  let writeRefused: WriteRights["writeRefused"];
  try {
    await sql.begin(async (tx) => {
      await tx`
        insert into ${tx.t.api_usage} (day, api, endpoint, requests, errors)
        values (current_date, 'doctor', 'write probe (rolled back)', 0, 0)
        on conflict (day, api, endpoint) do update set requests = api_usage.requests`;
      throw new RollBack();
    });
  } catch (error) {
    if (!(error instanceof RollBack)) {
      const e = error as { message?: string; code?: string };
      writeRefused = { message: e.message ?? String(error), code: e.code };
    }
  }
  return {
    missing,
    missingSequences: sequences.map((s) => s.name),
    canMigrate: schema?.can_migrate ?? false,
    ...(writeRefused ? { writeRefused } : {}),
  };
}
