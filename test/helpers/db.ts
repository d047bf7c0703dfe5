import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { inject } from "vitest";
import type { Config } from "../../src/config.ts";
import { type Database, openDatabase } from "../../src/db/connect.ts";
import { withDatabase } from "../setup/database.ts";

export interface TestDatabase {
  url: string;
  name: string;
  db: Database;
  /** Drops the database; call from afterAll. */
  drop(): Promise<void>;
}

/** A fresh database cloned from the migrated template, private to the calling test file. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = inject("pgServerUrl");
  const name = `regwatch_test_${randomBytes(6).toString("hex")}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database "${name}" template "${inject("pgTemplate")}"`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(serverUrl, name);
  const db = await openDatabase({ databaseUrl: url, dataDir: "" } satisfies Pick<
    Config,
    "databaseUrl" | "dataDir"
  >);
  return {
    url,
    name,
    db,
    async drop() {
      await db.close();
      const sql = postgres(serverUrl, { max: 1, onnotice: () => {} });
      await sql.unsafe(`drop database if exists "${name}" with (force)`);
      await sql.end();
    },
  };
}

/** An empty database (not migrated), for tests of the migrator itself. */
export async function createEmptyDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const serverUrl = inject("pgServerUrl");
  const name = `regwatch_empty_${randomBytes(6).toString("hex")}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  await admin.end();
  return {
    url: withDatabase(serverUrl, name),
    async drop() {
      const sql = postgres(serverUrl, { max: 1, onnotice: () => {} });
      await sql.unsafe(`drop database if exists "${name}" with (force)`);
      await sql.end();
    },
  };
}

/** The SQLSTATE a statement failed with; undefined when it went through. */
export async function sqlState(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
}
