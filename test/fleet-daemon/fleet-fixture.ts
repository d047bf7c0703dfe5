/**
 * A fleet in a test database: an accounts file in a temporary folder, the accounts' schemas
 * migrated, the queue installed, and a client bound to one account's schema for seeding.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import type { Sql } from "../../src/db/connect.ts";
import { runMigrations } from "../../src/db/migrate.ts";
import { scopedSql } from "../../src/db/scoped-sql.ts";
import { installQueue } from "../../src/fleet/queue.ts";
import { silentLogger } from "../../src/logger.ts";

export interface FleetAccountSpec {
  name: string;
  watch_url: string;
  api_key_env: string;
  schedule?: string;
  timezone?: string;
  rate_limit?: number;
}

export interface FleetFiles {
  dir: string;
  accountsFile: string;
  remove(): void;
}

/** Writes the accounts file (JSON) in a fresh temporary folder. */
export function writeAccountsFile(accounts: FleetAccountSpec[]): FleetFiles {
  const dir = mkdtempSync(path.join(tmpdir(), "regwatch-fleet-"));
  const accountsFile = path.join(dir, "accounts.json");
  writeFileSync(accountsFile, JSON.stringify({ accounts }, null, 2));
  return { dir, accountsFile, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Migrates the named accounts' schemas and installs the queue's schema. */
export async function prepareFleet(url: string, accounts: readonly string[]): Promise<void> {
  for (const name of accounts) await runMigrations(url, `regwatch_${name}`);
  await installQueue(url, silentLogger);
}

/** A one-connection client seen as the account's (statements name its schema through `t`). */
export function accountSql(url: string, account: string): Sql {
  const pool = postgres(url, {
    max: 1,
    onnotice: () => {},
  });
  return scopedSql(pool, `regwatch_${account}`);
}
