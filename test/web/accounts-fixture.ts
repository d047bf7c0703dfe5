/**
 * A fleet for the console's tests: one test database whose `regwatch` schema is the home (users,
 * sessions, who sees which account) and two accounts, `a` and `b`, each migrated into its own
 * schema and given alerts on businesses of its own, raised by the same scan the daemon runs.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { deliverAlerts } from "../../src/alerts/deliver.ts";
import { type Database, openDatabase } from "../../src/db/connect.ts";
import { runMigrations } from "../../src/db/migrate.ts";
import { silentLogger } from "../../src/logger.ts";
import { finishRun, startRun } from "../../src/run/runs.ts";
import { alertConfig } from "../alerts/harness.ts";
import { addNotifyRule } from "./fixtures.ts";

export interface Business {
  taxId: string;
  name: string;
}

/** The i-th account of a fleet of many: client_0001, client_0002 … */
export const clientAccount = (i: number) => `client_${String(i).padStart(4, "0")}`;

/** A fleet of 1,000 accounts: client_0001 … client_0999 and one other, `secret_ledger`. */
export const THOUSAND_ACCOUNTS: readonly string[] = [
  ...Array.from({ length: 999 }, (_, i) => clientAccount(i + 1)),
  "secret_ledger",
];

/** An accounts file listing these accounts (their key variables unset: the console needs no key). */
export function writeAccountsFile(names: readonly string[]): string {
  const dir = mkdtempSync(path.join(tmpdir(), "regwatch-accounts-"));
  const file = path.join(dir, "accounts.json");
  const accounts = names.map((name) => ({
    name,
    watch_url: `http://127.0.0.1:9/${name}/v2`,
    api_key_env: `CONSOLE_TEST_KEY_${name.toUpperCase()}`,
  }));
  writeFileSync(file, JSON.stringify({ accounts }));
  return file;
}

/** The account's schema, migrated, opened as the account's own Database. */
export async function openAccount(url: string, name: string): Promise<Database> {
  const schema = `regwatch_${name}`;
  await runMigrations(url, schema);
  return openDatabase({ databaseUrl: url, dataDir: "", schema });
}

/** Stores one name change per business in the account (on list "main") and raises its alerts. */
export async function seedAlerts(db: Database, businesses: readonly Business[]): Promise<number[]> {
  const { sql } = db;
  await addNotifyRule(sql);
  const runId = await startRun(sql, "sync", "cli", { options: { kind: "sync" } });
  await sql`insert into ${sql.t.watch_lists} (list_key, list_name) values ('key-main', 'main') on conflict do nothing`;
  const changeIds: number[] = [];
  for (const [i, b] of businesses.entries()) {
    await sql`insert into ${sql.t.business_profiles} (tax_id, name) values (${b.taxId}, ${b.name})`;
    const [row] = await sql<{ id: number }[]>`
      insert into ${sql.t.changes} (tax_id, change_date, chapter, path, changed_headings, raw)
      values (${b.taxId}, '2026-11-20', 'registry', ${`/files/${db.schema}-${i}.json`}, ${["name"]}, '{}')
      returning id::int`;
    changeIds.push(row!.id);
    await sql`insert into ${sql.t.change_sources} (change_id, list_key) values (${row!.id}, 'key-main')`;
    await sql`
      insert into ${sql.t.change_values} (change_id, heading, tax_id, change_date, old_value, new_value, path)
      select id, 'name', tax_id, change_date, ${sql.json("Old name")}, ${sql.json(b.name)}, path
      from ${sql.t.changes} where id = ${row!.id}`;
  }
  await finishRun(sql, runId, "ok", { options: { kind: "sync" } });
  await deliverAlerts(
    { sql, config: alertConfig(), log: silentLogger, random: () => 0.5 },
    { raiseOnly: true },
  );
  const rows = await sql<{ id: number }[]>`
    select id::int from ${sql.t.alerts} where change_id = any (${changeIds}::bigint[]) order by id`;
  return rows.map((r) => r.id);
}
