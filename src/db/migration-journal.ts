/**
 * The migrator's journals as read without migrating: where the shipped migrations are, which
 * table records a schema's applied ones, and whether a schema is current. Apart from migrate.ts
 * so that a command finding its schema current (nearly always) loads none of the migrator.
 */
import { readFile } from "node:fs";
import path from "node:path";
import type postgres from "postgres";
import { DEFAULT_SCHEMA } from "../account-name.ts";
import { packageRoot } from "../package-root.ts";

export const MIGRATIONS_FOLDER = path.join(packageRoot(), "migrations");

/** Schema of the migrator's journals (drizzle's own, whose table layout is kept). */
export const JOURNAL_SCHEMA = "drizzle";

/** undefined_table, invalid_schema_name: the journal (or its schema) does not exist yet. */
const NO_JOURNAL = new Set(["42P01", "3F000"]);

/**
 * The journal table of one schema's migrations: drizzle's default for schema regwatch (as before
 * accounts existed), one of its own for each account's schema.
 */
export function migrationsTableOf(schema: string): string {
  return schema === DEFAULT_SCHEMA ? "__drizzle_migrations" : `__drizzle_migrations_${schema}`;
}

/**
 * How many migrations the schema's journal records as applied (0 before the first). One
 * statement, without parameters (one round trip on a fresh connection): a journal not created yet
 * is told by the server's refusal of the table's name.
 */
export async function appliedCount(client: postgres.Sql, schema = DEFAULT_SCHEMA): Promise<number> {
  try {
    const [row] = await client<{ n: number }[]>`
      select count(*)::int as n from ${client(JOURNAL_SCHEMA)}.${client(migrationsTableOf(schema))}`;
    return row?.n ?? 0;
  } catch (error) {
    if (NO_JOURNAL.has((error as { code?: string }).code ?? "")) return 0;
    throw error;
  }
}

/**
 * True when every migration shipped with this build has been applied to the schema (for /readyz,
 * and before each command). The journal's table is named with its schema, so `sql` may be a pool
 * whose connections carry no search_path.
 */
export async function migrationsCurrent(sql: postgres.Sql, schema = DEFAULT_SCHEMA): Promise<boolean> {
  // The journal is read while the database answers (the first query also opens the connection),
  // through node:fs's callback: node:fs/promises would load a dozen more modules (readline's among
  // them) into every command's start.
  const [journal, applied] = await Promise.all([
    new Promise<string>((resolve, reject) =>
      readFile(`${MIGRATIONS_FOLDER}/meta/_journal.json`, "utf8", (error, text) =>
        error ? reject(error) : resolve(text),
      ),
    ),
    appliedCount(sql, schema),
  ]);
  return applied >= (JSON.parse(journal) as { entries: unknown[] }).entries.length;
}
