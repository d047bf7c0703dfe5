/**
 * The fleet at scale (issue 38): 200 accounts on one emulator (a key and a small world each), on a
 * fresh database: `regwatch migrate` of every account (timed), `enqueue sync --all` and 4
 * `regwatch worker --concurrency 4` processes doing one morning's sync of every account (lists
 * made the day before the last complete day). A sampler counts the database's connections in
 * pg_stat_activity every 100 ms throughout. No key may pass its rate in any second, every account
 * must end with an ok sync run, and no job may fail.
 *
 *   fleet_scale_accounts          accounts synced
 *   fleet_scale_max_connections   most connections seen at once (target ≤ 30)
 *   fleet_scale_migrate_s         `regwatch migrate` of them all on a fresh database (target ≤ 60)
 *   fleet_scale_wall_s            from the workers' start to the empty queue
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import postgres from "postgres";
import { addDays, lastCompleteDay } from "../src/dates.ts";
import { type RunningEmulator, startEmulator } from "../src/emulator/index.ts";
import { freshDatabase } from "./bench-database.ts";
import { untilQueueEmpty } from "./fleet.ts";
import { type Env, regwatch, startWorkers } from "./fleet-processes.ts";
import { keyRates, roundSummary } from "./fleet-stats.ts";
import { buildProduct } from "./product-bin.ts";

export interface FleetScaleParams {
  accounts: number;
  workers: number;
  concurrency: number;
  /** Lists per account and businesses per list: a small world. */
  lists: number;
  items: number;
  rateLimit: number;
  serverUrl: string;
}

export const FLEET_SCALE_FULL = { accounts: 200, workers: 4, concurrency: 4, lists: 1, items: 10 };
export const FLEET_SCALE_QUICK = { accounts: 12, workers: 2, concurrency: 2, lists: 1, items: 5 };

const TZ = "Europe/Budapest";
const SAMPLE_MS = 100;

export async function fleetScaleBench(p: FleetScaleParams): Promise<Record<string, number>> {
  buildProduct();
  const dir = await mkdtemp(path.join(tmpdir(), "regwatch-fleet-scale-"));
  const keys = Array.from({ length: p.accounts }, (_, i) => `scale-key-${i + 1}-${(i * 7919 + 17) % 9973}`);
  // Lists made the day before the last complete day: a sync reads one morning's worth.
  const createdAt = addDays(lastCompleteDay(new Date(), TZ), -1);
  const emulator = await startEmulator({
    seed: 38,
    businesses: Math.max(5_000, p.accounts * p.lists * p.items),
    rateLimit: p.rateLimit,
    fileRateLimit: p.rateLimit,
    tenants: keys.map((apiKey) => ({
      apiKey,
      lists: Array.from({ length: p.lists }, (_, i) => ({ name: `w${i}`, createdAt, size: p.items })),
    })),
  });
  const url = await freshDatabase(p.serverUrl, "regwatch_bench_fleet_scale");
  const sampler = sampleConnections(url);
  try {
    const env: Env = { ...(await accountsEnv(dir, emulator, keys, p.rateLimit)), DATABASE_URL: url };
    const migrateStarted = performance.now();
    await regwatch(["migrate"], env);
    const migrateS = (performance.now() - migrateStarted) / 1000;
    const queued = (await regwatch(["enqueue", "sync", "--all"], env)).trim().split("\n").filter(Boolean);
    if (queued.length !== p.accounts)
      throw new Error(`enqueue gave ${queued.length} lines for ${p.accounts}`);
    emulator.resetLog();
    const started = performance.now();
    const pool = startWorkers(p.workers, env, p.concurrency);
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    try {
      await untilQueueEmpty(sql, () => pool.exited(), started);
      const wallS = (performance.now() - started) / 1000;
      await pool.stop();
      await checkRuns(sql, p.accounts);
      const rates = keyRates(emulator.requests());
      const over = rates.filter((r) => r.maxRps > p.rateLimit);
      if (over.length > 0)
        throw new Error(
          `keys over ${p.rateLimit}/s: ${over.map((r) => `${r.tenant} ${r.maxRps}`).join(", ")}`,
        );
      if (rates.length !== p.accounts)
        throw new Error(`only ${rates.length} of ${p.accounts} keys were used`);
      const s = roundSummary(rates);
      const maxConnections = await sampler.stop();
      process.stdout.write(
        `fleet at scale: ${p.accounts} accounts, ${p.workers} workers at --concurrency ${p.concurrency}: ` +
          `migrate ${migrateS.toFixed(1)} s, sync ${wallS.toFixed(1)} s, ${s.requests} requests, ` +
          `busiest second of a key ${s.maxRps} (limit ${p.rateLimit}), at most ${maxConnections} connections\n`,
      );
      return {
        fleet_scale_accounts: p.accounts,
        fleet_scale_max_connections: maxConnections,
        fleet_scale_migrate_s: Math.round(migrateS * 10) / 10,
        fleet_scale_wall_s: Math.round(wallS * 10) / 10,
      };
    } finally {
      await pool.stop().catch(() => {});
      await sql.end();
    }
  } finally {
    await sampler.stop();
    await emulator.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Counts the database's connections (the sampler's own aside) every SAMPLE_MS; stop gives the most. */
function sampleConnections(url: string): { stop(): Promise<number> } {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  let most = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const [row] = await sql<{ n: number }[]>`
        select count(*)::int as n from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid()`;
      most = Math.max(most, row!.n);
      await sleep(SAMPLE_MS);
    }
  })();
  let stopped: Promise<number> | undefined;
  return {
    stop() {
      stopped ??= (async () => {
        running = false;
        await loop.catch(() => {});
        await sql.end();
        return most;
      })();
      return stopped;
    },
  };
}

async function accountsEnv(dir: string, emulator: RunningEmulator, keys: string[], rateLimit: number) {
  const file = path.join(dir, "accounts.json");
  const env: Env = { REGWATCH_TZ: TZ, REGWATCH_ACCOUNTS_FILE: file };
  const accounts = keys.map((key, i) => {
    const variable = `SCALE_KEY_${i + 1}`;
    env[variable] = key;
    return {
      name: accountName(i),
      watch_url: `${emulator.baseUrl}/v2`,
      api_key_env: variable,
      rate_limit: rateLimit,
    };
  });
  await writeFile(file, `${JSON.stringify({ accounts }, null, 2)}\n`);
  return env;
}

function accountName(i: number): string {
  return `c${String(i + 1).padStart(3, "0")}`;
}

async function checkRuns(sql: postgres.Sql, accounts: number) {
  for (let i = 0; i < accounts; i++) {
    const schema = `regwatch_${accountName(i)}`;
    const runs = await sql<{ kind: string; status: string }[]>`select kind, status from ${sql(schema)}.runs`;
    if (!runs.some((r) => r.kind === "sync") || runs.some((r) => r.status !== "ok"))
      throw new Error(`account ${schema}: runs ${JSON.stringify(runs)}`);
  }
}
