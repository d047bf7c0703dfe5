import path from "node:path";
import postgres from "postgres";
import { packageRoot } from "../package-root.ts";
import { withNoDelay } from "./socket.ts";

export const MIGRATIONS_FOLDER = path.join(packageRoot(), "migrations");

/** Arbitrary but fixed: serialises concurrent migrators across processes. */
const MIGRATION_LOCK = 0x72_77_6d_67; // "rwmg"

/**
 * Applies pending migrations. Safe to run again (applied ones are skipped) and from several
 * processes at once: a session advisory lock makes them take turns, and each later one finds
 * nothing left to do.
 */
export async function runMigrations(url: string): Promise<{ applied: number }> {
  // One connection, so the lock, the journal reads and every migration share a session.
  const client = postgres(
    url,
    withNoDelay({ max: 1, onnotice: () => {}, connection: { application_name: "regwatch" } }),
  );
  try {
    await client`select pg_advisory_lock(${MIGRATION_LOCK})`;
    const before = await appliedCount(client);
    // Loaded only when migrating: most commands find the schema current and never need them.
    const { drizzle } = await import("drizzle-orm/postgres-js");
    const { migrate } = await import("drizzle-orm/postgres-js/migrator");
    await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER });
    const after = await appliedCount(client);
    await client`select pg_advisory_unlock(${MIGRATION_LOCK})`;
    return { applied: after - before };
  } finally {
    await client.end({ timeout: 5 });
  }
}

async function appliedCount(client: postgres.Sql): Promise<number> {
  const [table] = await client<{ exists: boolean }[]>`
    select to_regclass('drizzle.__drizzle_migrations') is not null as exists`;
  if (!table?.exists) return 0;
  const [row] = await client<{ n: number }[]>`select count(*)::int as n from drizzle.__drizzle_migrations`;
  return row?.n ?? 0;
}

/** True when every migration shipped with this build has been applied (for /readyz). */
export async function migrationsCurrent(sql: postgres.Sql): Promise<boolean> {
  const { readFile } = await import("node:fs/promises");
  // The journal is read while the database answers (the first query also opens the connection).
  const [journal, applied] = await Promise.all([
    readFile(`${MIGRATIONS_FOLDER}/meta/_journal.json`, "utf8"),
    appliedCount(sql),
  ]);
  return applied >= (JSON.parse(journal) as { entries: unknown[] }).entries.length;
}
