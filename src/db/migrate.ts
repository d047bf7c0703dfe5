import path from "node:path";
import postgres from "postgres";
import { packageRoot } from "../package-root.ts";
import { DEFAULT_SCHEMA, type Sql, schemaConnection } from "./connect.ts";
import { reapplyReaderGrants } from "./grants.ts";
import { retargetMigration } from "./schema-name.ts";
import { withNoDelay } from "./socket.ts";

export const MIGRATIONS_FOLDER = path.join(packageRoot(), "migrations");

/** Arbitrary but fixed: serialises concurrent migrators across processes. */
const MIGRATION_LOCK = 0x72_77_6d_67; // "rwmg"

/** Schema of the migrator's journals (drizzle's own). */
const JOURNAL_SCHEMA = "drizzle";

/**
 * The journal table of one schema's migrations: drizzle's default for schema regwatch (as before
 * accounts existed), one of its own for each account's schema.
 */
export function migrationsTableOf(schema: string): string {
  return schema === DEFAULT_SCHEMA ? "__drizzle_migrations" : `__drizzle_migrations_${schema}`;
}

/**
 * Applies pending migrations to one schema: `regwatch`, or an account's `regwatch_<name>`, which
 * gets the very same statements with the schema's name put in place of `regwatch`. Safe to run
 * again (applied ones are skipped) and from several processes at once: a session advisory lock
 * makes them take turns, and each later one finds nothing left to do. When it applied any, the
 * grants of the schema's reader roles are applied again (src/db/grants.ts).
 */
export async function runMigrations(url: string, schema = DEFAULT_SCHEMA): Promise<{ applied: number }> {
  // One connection, so the lock, the journal reads and every migration share a session.
  const client = postgres(
    url,
    withNoDelay({
      max: 1,
      onnotice: () => {},
      connection: { application_name: "regwatch", ...schemaConnection(schema) },
    }),
  );
  try {
    await client`select pg_advisory_lock(${MIGRATION_LOCK})`;
    const before = await appliedCount(client, schema);
    // Loaded only when migrating: most commands find the schema current and never need them.
    const { drizzle } = await import("drizzle-orm/postgres-js");
    const { readMigrationFiles } = await import("drizzle-orm/migrator");
    const config = {
      migrationsFolder: MIGRATIONS_FOLDER,
      migrationsSchema: JOURNAL_SCHEMA,
      migrationsTable: migrationsTableOf(schema),
    };
    const migrations = readMigrationFiles(config).map((m) => ({
      ...m,
      sql: m.sql.map((statement) => retargetMigration(statement, schema)),
    }));
    const db = drizzle(client) as unknown as DrizzleInternals;
    // What drizzle's own `migrate` does, with the statements retargeted to the schema.
    await db.dialect.migrate(migrations, db.session, config);
    const after = await appliedCount(client, schema);
    // New tables reach the reader roles (data ones only), still under the migrators' lock.
    if (after > before) await reapplyReaderGrants(client as unknown as Sql, schema);
    await client`select pg_advisory_unlock(${MIGRATION_LOCK})`;
    return { applied: after - before };
  } finally {
    await client.end({ timeout: 5 });
  }
}

interface DrizzleInternals {
  session: unknown;
  dialect: { migrate(migrations: unknown, session: unknown, config: unknown): Promise<void> };
}

/** How many migrations the schema's journal records as applied (0 before the first). */
export async function appliedCount(client: postgres.Sql, schema = DEFAULT_SCHEMA): Promise<number> {
  const table = `${JOURNAL_SCHEMA}.${migrationsTableOf(schema)}`;
  const [found] = await client<{ exists: boolean }[]>`select to_regclass(${table}) is not null as exists`;
  if (!found?.exists) return 0;
  const [row] = await client<{ n: number }[]>`
    select count(*)::int as n from ${client(JOURNAL_SCHEMA)}.${client(migrationsTableOf(schema))}`;
  return row?.n ?? 0;
}

/** True when every migration shipped with this build has been applied to the schema (for /readyz). */
export async function migrationsCurrent(sql: postgres.Sql, schema = DEFAULT_SCHEMA): Promise<boolean> {
  const { readFile } = await import("node:fs/promises");
  // The journal is read while the database answers (the first query also opens the connection).
  const [journal, applied] = await Promise.all([
    readFile(`${MIGRATIONS_FOLDER}/meta/_journal.json`, "utf8"),
    appliedCount(sql, schema),
  ]);
  return applied >= (JSON.parse(journal) as { entries: unknown[] }).entries.length;
}
