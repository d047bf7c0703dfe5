import postgres from "postgres";
import { DEFAULT_SCHEMA, poolerOptions, type Sql } from "./connect.ts";
import { reapplyReaderGrantsIn } from "./grants.ts";
import { type Baseline, baselineFor, readBaseline } from "./migration-baseline.ts";
import { type Migration, pendingMigrations, readMigrations } from "./migration-files.ts";
import { JOURNAL_SCHEMA, MIGRATIONS_FOLDER, migrationsTableOf } from "./migration-journal.ts";
import { keepRegistryZone } from "./registry-zone.ts";
import { retargetMigration } from "./schema-name.ts";
import { withNoDelay } from "./socket.ts";

export {
  appliedCount,
  MIGRATIONS_FOLDER,
  migrationsCurrent,
  migrationsTableOf,
} from "./migration-journal.ts";

export interface MigrateOptions {
  /** REGWATCH_REGISTRY_TZ: the zone the schema's views count the registry's days in. */
  registryTz?: string;
  /**
   * What a fresh schema is built from instead of its first migrations (migration-baseline.ts):
   * by default the one beside the shipped migrations; null replays every migration.
   */
  baseline?: Baseline | null;
}

/** Arbitrary but fixed: with the schema's hash, serialises the migrators of one schema. */
const MIGRATION_LOCK = 0x72_77_6d_67; // "rwmg"

/**
 * Applies pending migrations to one schema (`regwatch`, or an account's `regwatch_<name>`, which
 * gets the very same statements with the schema's name put in place of `regwatch`) on a client of
 * its own. See migrateSchema.
 */
export async function runMigrations(
  url: string,
  schema = DEFAULT_SCHEMA,
  options: MigrateOptions = {},
): Promise<{ applied: number; fromBaseline: boolean }> {
  const client = postgres(
    url,
    withNoDelay({
      ...poolerOptions(url),
      max: 1,
      onnotice: () => {},
      connection: { application_name: "regwatch" },
    }),
  );
  try {
    return await migrateSchema(client, schema, undefined, options);
  } finally {
    await client.end({ timeout: 5 });
  }
}

/**
 * Applies the schema's pending migrations in one transaction on `pool` (whose connections carry
 * no schema: the transaction sets its search_path), recording each in the schema's journal as
 * drizzle's migrator does. Safe to run again (applied ones are skipped) and from several processes
 * at once: a transaction-scoped advisory lock of the schema makes them take turns, so it passes
 * through a pooler in transaction mode too. When it applied any, the grants of the schema's reader
 * roles are applied again in the same transaction (src/db/grants.ts). With `registryTz`, the
 * schema's registry_zone() is made to return it, if it returns another (src/db/registry-zone.ts).
 */
export async function migrateSchema(
  pool: postgres.Sql,
  schema: string,
  migrations: readonly Migration[] = readMigrations(MIGRATIONS_FOLDER),
  options: MigrateOptions = {},
): Promise<{ applied: number; fromBaseline: boolean }> {
  await ensureJournalSchema(pool);
  const table = migrationsTableOf(schema);
  return pool.begin(async (tx) => {
    const t = tx as unknown as Sql;
    // The commit need not wait for its WAL to reach the disk: the transaction is the schema's
    // statements and its journal together, so a crash loses both or neither, and the next
    // migrate applies again what it lost. Hundreds of fresh schemas stop waiting on the disk.
    await t`select set_config('search_path', ${schema}, true), set_config('synchronous_commit', 'off', true)`;
    await t`select pg_advisory_xact_lock(${MIGRATION_LOCK}, hashtext(${schema}))`;
    await t`create table if not exists ${t(JOURNAL_SCHEMA)}.${t(table)} (
      id serial primary key, hash text not null, created_at bigint)`;
    const [last] = await t<{ at: string | null }[]>`
      select max(created_at)::text as at from ${t(JOURNAL_SCHEMA)}.${t(table)}`;
    const pending = pendingMigrations(migrations, last?.at == null ? undefined : Number(last.at));
    // A fresh schema starts from the baseline, when it stands for the first of these migrations.
    const fresh = last?.at == null;
    const baseline = fresh ? baselineFor(baselineOption(options), pending) : undefined;
    if (pending.length > 0) {
      if (baseline) await applyBaseline(t, baseline, schema);
      // Every pending statement in one message (the simple protocol runs several in a row): a
      // fresh schema takes hundreds of statements, and their round trips would be most of its time.
      const rest = pending.slice(baseline?.covers ?? 0);
      const statements = rest.flatMap((m) => m.sql.map((s) => retargetMigration(s, schema)));
      if (statements.length > 0) await t.unsafe(statements.join(";\n")).simple();
      await t`insert into ${t(JOURNAL_SCHEMA)}.${t(table)} (hash, created_at)
              select * from unnest(${pending.map((m) => m.hash)}::text[], ${pending.map((m) => m.folderMillis)}::bigint[])`;
    }
    // New tables reach the reader roles (data ones only), in the migration's own transaction.
    if (pending.length > 0) await reapplyReaderGrantsIn(t, schema);
    // The calendar of the views' days: REGWATCH_REGISTRY_TZ, not the migration's default.
    if (options.registryTz !== undefined) await keepRegistryZone(tx, schema, options.registryTz);
    return { applied: pending.length, fromBaseline: baseline !== undefined };
  });
}

function baselineOption(options: MigrateOptions): Baseline | undefined {
  return options.baseline === undefined ? readBaseline(MIGRATIONS_FOLDER) : (options.baseline ?? undefined);
}

/**
 * Builds `schema` from `baseline` in the migration's transaction. Its functions come before the
 * tables their bodies read (as pg_dump orders them), so bodies are not checked while it runs;
 * the setting is put back for the migrations after it.
 */
async function applyBaseline(t: Sql, baseline: Baseline, schema: string): Promise<void> {
  const [before] = await t<{ checks: string }[]>`
    select current_setting('check_function_bodies') as checks, set_config('check_function_bodies', 'off', true)`;
  await t.unsafe(retargetMigration(baseline.sql, schema)).simple();
  await t`select set_config('check_function_bodies', ${before?.checks ?? "on"}, true)`;
}

/** The journals' schema, created once (two migrators creating it at once would collide). */
async function ensureJournalSchema(pool: postgres.Sql): Promise<void> {
  const [found] = await pool<{ exists: boolean }[]>`
    select to_regnamespace(${JOURNAL_SCHEMA}) is not null as exists`;
  if (found?.exists) return;
  await pool.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${MIGRATION_LOCK})`;
    await tx`create schema if not exists ${tx(JOURNAL_SCHEMA)}`;
  });
}

/**
 * The newest migration each schema's journal records (its `created_at`), in one statement over
 * every journal: a schema absent from the answer has none. What `migrate` of many accounts reads
 * first, so that the accounts already current cost nothing more.
 */
export async function newestApplied(
  sql: postgres.Sql,
  schemas: readonly string[],
): Promise<Map<string, number>> {
  const tables = await sql<{ name: string }[]>`
    select c.relname as name from pg_class c
    where c.relnamespace = to_regnamespace(${JOURNAL_SCHEMA}) and c.relkind = 'r'
      and c.relname = any(${schemas.map(migrationsTableOf)}::text[])`;
  const found = new Set(tables.map((t) => t.name));
  const present = schemas.filter((s) => found.has(migrationsTableOf(s)));
  const newest = new Map<string, number>();
  if (present.length === 0) return newest;
  const parts = present.map(
    (schema) =>
      sql`select ${schema}::text as schema, max(created_at)::text as at
          from ${sql(JOURNAL_SCHEMA)}.${sql(migrationsTableOf(schema))}`,
  );
  const union = parts.reduce((all, part) => sql`${all} union all ${part}`);
  for (const row of await sql<{ schema: string; at: string | null }[]>`${union}`)
    if (row.at !== null) newest.set(row.schema, Number(row.at));
  return newest;
}
