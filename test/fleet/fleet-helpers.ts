/**
 * What the fleet tests share: an accounts file on disk, `regwatch worker` as a child process
 * whose JSON log lines are kept, and a snapshot of one schema's synced tables (without ids and
 * timestamps) to compare an account's schema with a single-account run.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Sql } from "../../src/db/connect.ts";
import { childBaseEnv } from "../helpers/child-env.ts";
import { BIN } from "../helpers/cli.ts";

export interface AccountEntry {
  name: string;
  watch_url: string;
  api_key_env: string;
  file_origins?: string[];
  rate_limit?: number;
}

export function writeAccountsFile(accounts: AccountEntry[]): string {
  const dir = mkdtempSync(path.join(tmpdir(), "regwatch-fleet-"));
  const file = path.join(dir, "accounts.json");
  writeFileSync(file, JSON.stringify({ accounts }, null, 2));
  return file;
}

/** A tenants file for `regwatch emulator --tenants`: one key per name, each with one small list. */
export function writeTenantsFile(
  names: readonly string[],
  list: { createdAt: string; size: number; firstSeed: number },
): string {
  const dir = mkdtempSync(path.join(tmpdir(), "regwatch-tenants-"));
  const file = path.join(dir, "tenants.json");
  const tenants = names.map((name, i) => ({
    apiKey: tenantKey(name),
    seed: list.firstSeed + i,
    lists: [{ name: `${name} list`, createdAt: list.createdAt, size: list.size }],
  }));
  writeFileSync(file, JSON.stringify(tenants));
  return file;
}

/** The key writeTenantsFile gives the account `name`. */
export function tenantKey(name: string): string {
  return `key-${name}-${"x".repeat(24)}`;
}

export interface WorkerProcess {
  child: ChildProcess;
  /** The JSON log lines written so far. */
  lines: Record<string, unknown>[];
  output(): string;
  exited: Promise<number | null>;
}

export function spawnWorker(args: string[], env: Record<string, string>): WorkerProcess {
  const child = spawn(process.execPath, [BIN, "worker", ...args], {
    env: { ...childBaseEnv(), REGWATCH_LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: Record<string, unknown>[] = [];
  let text = "";
  let partial = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    text += chunk.toString();
    partial += chunk.toString();
    const parts = partial.split("\n");
    partial = parts.pop() ?? "";
    for (const line of parts) {
      try {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        // not a log line
      }
    }
  });
  child.stderr!.on("data", (chunk: Buffer) => {
    text += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, lines, output: () => text, exited };
}

/** The synced content of one schema, in a stable order, without generated ids and timestamps. */
export async function schemaSnapshot(sql: Sql, schema: string) {
  const s = sql(schema);
  const [lists, items, changes, sources, files, values, coverage] = await Promise.all([
    sql`select list_key, list_name, to_char(created_at, 'YYYY-MM-DD') as created_at from ${s}.watch_lists order by list_key`,
    sql`select list_key, tax_id from ${s}.watched_items order by list_key, tax_id`,
    sql`select tax_id, to_char(change_date, 'YYYY-MM-DD') as change_date, chapter, path, changed_headings, raw
        from ${s}.changes order by tax_id, change_date, chapter, path`,
    sql`select c.tax_id, to_char(c.change_date, 'YYYY-MM-DD') as change_date, c.path, x.list_key
        from ${s}.change_sources x join ${s}.changes c on c.id = x.change_id
        order by c.tax_id, c.change_date, c.path, x.list_key`,
    sql`select path, status, http_status, content_type, sha256, size_bytes
        from ${s}.change_files order by path`,
    sql`select heading, tax_id, to_char(change_date, 'YYYY-MM-DD') as change_date, old_value, new_value, path
        from ${s}.change_values order by tax_id, change_date, heading, path, old_value::text, new_value::text`,
    sql`with days as (
          select distinct list_key, d::date as day
          from ${s}.coverage, generate_series(start_date, end_date, interval '1 day') d)
        select list_key, to_char(day, 'YYYY-MM-DD') as day from days order by list_key, day`,
  ]);
  return {
    lists: [...lists],
    items: [...items],
    changes: [...changes],
    sources: [...sources],
    files: [...files],
    values: [...values],
    coverage: [...coverage],
  };
}
