/**
 * What the reconcile tests share: an emulator over real HTTP, a private database, a registry
 * client pointed at the emulator, and helpers to write the desired state and read the outcome.
 */
import { createRegistry, type RegistryClients } from "../../src/api/registry.ts";
import { type Config, loadConfig, requireWatch } from "../../src/config.ts";
import type { Sql } from "../../src/db/connect.ts";
import { type EmulatorOptions, type RunningEmulator, startEmulator } from "../../src/emulator/index.ts";
import { silentLogger } from "../../src/logger.ts";
import { type ReconcileOptions, type ReconcileReport, reconcile } from "../../src/reconcile/reconcile.ts";
import { checkDigit } from "../../src/taxid.ts";
import type { TestDatabase } from "../helpers/db.ts";

export const EMULATOR_NOW = "2025-03-04T09:00:00Z";

export interface Harness {
  emulator: RunningEmulator;
  config: Config & { watchUrl: string; apiKey: string };
  env: Record<string, string>;
  run(options?: ReconcileOptions): Promise<ReconcileReport>;
  close(): Promise<void>;
}

export async function startHarness(
  test: TestDatabase,
  emulatorOptions: EmulatorOptions = {},
  extraEnv: Record<string, string> = {},
): Promise<Harness> {
  const emulator = await startEmulator({
    seed: 11,
    now: EMULATOR_NOW,
    frozenClock: true,
    ...emulatorOptions,
  });
  const env = {
    REGWATCH_WATCH_URL: emulator.url,
    REGWATCH_API_KEY: emulator.apiKey,
    DATABASE_URL: test.url,
    ...extraEnv,
  };
  const config = loadConfig(env);
  requireWatch(config);
  const registries: RegistryClients[] = [];
  return {
    emulator,
    config,
    env,
    async run(options = {}) {
      // A registry per run, as the command builds one: no limiter state carried between runs.
      const registry = createRegistry(config, { log: silentLogger });
      registries.push(registry);
      return reconcile({ config, log: silentLogger, db: test.db, registry }, options);
    },
    async close() {
      await Promise.all(registries.map((r) => r.close()));
      await emulator.close();
    },
  };
}

/** Distinct tax ids the emulator's watch service knows (no budget organisations: those give 404). */
export function watchableTaxIds(emulator: RunningEmulator, count: number): string[] {
  const seen = new Set<string>();
  for (const type of ["companies", "self_employed", "civil_orgs"]) {
    for (const b of emulator.sampleBusinesses({ type, limit: 1000 })) seen.add(String(b.tax_id));
  }
  const ids = [...seen].sort();
  if (ids.length < count)
    throw new Error(`the emulator offers only ${ids.length} watchable tax ids, ${count} wanted`);
  return ids.slice(0, count);
}

/** A well-formed tax id (right check digit) that no business of the data set has. */
export function unknownTaxId(n: number): string {
  const seven = `99${String(n).padStart(5, "0")}`;
  return `${seven}${checkDigit(seven)}`;
}

export async function clearState(sql: Sql): Promise<void> {
  await sql`truncate regwatch.desired_items, regwatch.desired_lists, regwatch.item_outcomes,
    regwatch.watched_items, regwatch.watch_lists, regwatch.runs, regwatch.api_usage,
    regwatch.managed_lists, regwatch.managed_items`;
}

export async function desireList(
  sql: Sql,
  listName: string,
  taxIds: readonly string[],
  prune = true,
): Promise<void> {
  await sql`insert into regwatch.desired_lists (list_name, prune) values (${listName}, ${prune})
    on conflict (list_name) do update set prune = excluded.prune`;
  const rows = taxIds.map((taxId) => ({ list_name: listName, tax_id: taxId }));
  for (let i = 0; i < rows.length; i += 5000) {
    await sql`insert into regwatch.desired_items ${sql(rows.slice(i, i + 5000), "list_name", "tax_id")}
      on conflict do nothing`;
  }
}

export async function undesire(sql: Sql, listName: string, taxIds: readonly string[]): Promise<void> {
  await sql`delete from regwatch.desired_items where list_name = ${listName} and tax_id = any(${taxIds as string[]})`;
}

export interface OutcomeRow {
  listName: string;
  taxId: string;
  op: string;
  code: number | null;
  message: string;
}

export async function outcomes(sql: Sql): Promise<OutcomeRow[]> {
  return sql<OutcomeRow[]>`
    select list_name as "listName", tax_id as "taxId", op, code, message
    from regwatch.item_outcomes order by list_name, op, tax_id`;
}

/** Requests that change something on the registry. */
export function mutatingRequests(emulator: RunningEmulator) {
  return emulator.requests().filter((r) => r.method !== "GET");
}

export function remoteItems(emulator: RunningEmulator, listName: string): string[] {
  const lists = emulator.listsSnapshot().filter((l) => l.list_name === listName);
  if (lists.length !== 1) throw new Error(`expected one remote list "${listName}", found ${lists.length}`);
  return lists[0]!.items.map((i) => i.tax_id).sort();
}
