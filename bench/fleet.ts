/**
 * The fleet (issue 29): one emulator serving many keys, each its own world (lists, items, weeks of
 * changes); an accounts file with one account per key; then per round, on a fresh database:
 * `regwatch migrate`, `regwatch enqueue sync --all` and N `regwatch worker --concurrency 1`
 * processes (so the number of processes is what scales) until the queue is empty. Wall time is
 * from the workers' start to the empty queue (their start-up included). Each key's requests are
 * read from the emulator's log: the mean rate over its busy span and the most in any one second,
 * which must never pass the key's limit. A job that fails, or is retried, fails the bench.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import postgres from "postgres";
import { addDays, lastCompleteDay } from "../src/dates.ts";
import { type RunningEmulator, startEmulator } from "../src/emulator/index.ts";
import { type Env, regwatch, startWorkers } from "./fleet-processes.ts";
import { type KeyRate, keyRates, roundSummary } from "./fleet-stats.ts";
import { buildProduct } from "./product-bin.ts";

export interface FleetParams {
  keys: number;
  lists: number;
  items: number;
  weeks: number;
  /** The emulator's changes per watched business per month (its default is 3). */
  changesPerMonth: number;
  /** Worker process counts, one round each. */
  workers: number[];
  rateLimit: number;
  /** A fresh, migrated database for a round (bench/bench-database.ts): its URL. */
  database(name: string): Promise<string>;
}

export const FLEET_FULL = { keys: 20, lists: 10, items: 200, weeks: 8, changesPerMonth: 0.25 };
export const FLEET_QUICK = { keys: 4, lists: 2, items: 20, weeks: 2, changesPerMonth: 0.5 };

const TZ = "Europe/Budapest";
// A job that has not finished in this long is stuck, not slow.
const ROUND_LIMIT_MS = 60 * 60_000;

export interface FleetRound {
  workers: number;
  wallS: number;
  rates: KeyRate[];
  /** CPU seconds of the worker processes, and of this process (the emulator, mostly). */
  workerCpuS: number;
  emulatorCpuS: number;
  /** The machine's 1-minute load average at the round's end. */
  load: number;
}

export async function fleetBench(p: FleetParams): Promise<Record<string, number>> {
  buildProduct();
  const dir = await mkdtemp(path.join(tmpdir(), "regwatch-fleet-"));
  const keys = Array.from({ length: p.keys }, (_, i) => `fleet-key-${i + 1}-${(i * 7919 + 13) % 9973}`);
  // The lists start `weeks` weeks before the last complete day, so a first sync covers them all.
  const createdAt = addDays(lastCompleteDay(new Date(), TZ), -7 * p.weeks + 1);
  const emulator = await startEmulator({
    seed: 29,
    businesses: Math.max(10_000, p.lists * p.items * 5),
    rateLimit: p.rateLimit,
    fileRateLimit: p.rateLimit,
    changesPerBusinessPerMonth: p.changesPerMonth,
    tenants: keys.map((apiKey) => ({
      apiKey,
      // Names of different first letters start at different places of the key's data set.
      lists: Array.from({ length: p.lists }, (_, i) => ({
        name: `${String.fromCharCode(97 + (i % 26))}${i}-watch`,
        createdAt,
        size: p.items,
      })),
    })),
  });
  try {
    const env = await accountsEnv(dir, emulator, keys, p.rateLimit);
    const rounds: FleetRound[] = [];
    for (const workers of p.workers) {
      const round = await fleetRound(p, emulator, env, workers);
      rounds.push(round);
      const s = roundSummary(round.rates);
      process.stdout.write(
        `fleet ${workers} worker(s): ${round.wallS} s, ${s.requests} requests (${s.refused} refused 429), ` +
          `per key ${s.meanRps.toFixed(1)}/s mean, ${s.maxRps} in the busiest second; CPU s: ` +
          `workers ${round.workerCpuS.toFixed(1)}, emulator ${round.emulatorCpuS.toFixed(1)}; load ${round.load.toFixed(1)}\n`,
      );
    }
    return fleetFigures(p, rounds);
  } finally {
    await emulator.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The accounts file (one account per key, keys in variables) and the environment naming it. */
async function accountsEnv(
  dir: string,
  emulator: RunningEmulator,
  keys: string[],
  rateLimit: number,
): Promise<Env> {
  const file = path.join(dir, "accounts.json");
  const env: Env = { REGWATCH_TZ: TZ, REGWATCH_ACCOUNTS_FILE: file };
  const accounts = keys.map((key, i) => {
    const variable = `FLEET_KEY_${i + 1}`;
    env[variable] = key;
    return {
      name: `acct${String(i + 1).padStart(2, "0")}`,
      watch_url: `${emulator.baseUrl}/v2`,
      api_key_env: variable,
      rate_limit: rateLimit,
    };
  });
  await writeFile(file, `${JSON.stringify({ accounts }, null, 2)}\n`);
  return env;
}

async function fleetRound(
  p: FleetParams,
  emulator: RunningEmulator,
  accountsEnv: Env,
  workers: number,
): Promise<FleetRound> {
  const url = await p.database("regwatch_bench_fleet");
  const env = { ...accountsEnv, DATABASE_URL: url };
  await regwatch(["migrate"], env);
  const queued = await regwatch(["enqueue", "sync", "--all"], env);
  const lines = queued.trim().split("\n").filter(Boolean);
  if (lines.length !== p.keys) throw new Error(`enqueue gave ${lines.length} lines for ${p.keys} accounts`);
  emulator.resetLog();
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const pool = startWorkers(workers, env);
  try {
    await untilQueueEmpty(sql, () => pool.exited(), started);
    const wallS = Math.round(performance.now() - started) / 1000;
    const workerCpuS = pool.cpuSeconds();
    const cpu = process.cpuUsage(cpuBefore);
    const load = loadavg()[0]!;
    await pool.stop();
    await checkRuns(sql, p.keys);
    const emulatorCpuS = (cpu.user + cpu.system) / 1e6;
    return { workers, wallS, rates: keyRates(emulator.requests()), workerCpuS, emulatorCpuS, load };
  } finally {
    await pool.stop().catch(() => {});
    await sql.end();
  }
}

/**
 * Polls graphile-worker's jobs view (the queue's own table, in its schema) until no regwatch
 * job is left: a job that succeeds is removed. A job tried and failed even once fails the bench.
 */
export async function untilQueueEmpty(sql: postgres.Sql, exited: () => string | undefined, started: number) {
  for (;;) {
    const [row] = await sql<{ left: number; tried: number; error: string | null }[]>`
      select count(*)::int as left, count(*) filter (where attempts > 0 and locked_at is null)::int as tried,
        max(last_error) as error
      from graphile_worker.jobs where queue_name like 'regwatch:%'`;
    if (row!.tried > 0) throw new Error(`a fleet job failed: ${row!.error ?? "(no error kept)"}`);
    if (row!.left === 0) return;
    const gone = exited();
    if (gone) throw new Error(gone);
    if (performance.now() - started > ROUND_LIMIT_MS) throw new Error("the fleet's jobs did not finish");
    await sleep(250);
  }
}

/** Every account has a sync run, and every run of every account ended ok. */
async function checkRuns(sql: postgres.Sql, keys: number) {
  for (let i = 1; i <= keys; i++) {
    const schema = `regwatch_acct${String(i).padStart(2, "0")}`;
    const runs = await sql<{ kind: string; status: string }[]>`
      select kind, status from ${sql(schema)}.runs`;
    if (!runs.some((r) => r.kind === "sync") || runs.some((r) => r.status !== "ok")) {
      throw new Error(`account ${schema}: runs ${JSON.stringify(runs)}`);
    }
  }
}

function fleetFigures(p: FleetParams, rounds: FleetRound[]): Record<string, number> {
  const figures: Record<string, number> = {
    fleet_keys: p.keys,
    fleet_lists_per_key: p.lists,
    fleet_items_per_list: p.items,
    fleet_weeks: p.weeks,
    fleet_changes_per_business_month: p.changesPerMonth,
  };
  let maxRps = 0;
  for (const round of rounds) {
    const s = roundSummary(round.rates);
    const over = round.rates.filter((r) => r.maxRps > p.rateLimit);
    if (over.length > 0) {
      const shown = over.map((r) => `${r.tenant} ${r.maxRps}/s`).join(", ");
      throw new Error(`${round.workers} worker(s): a key went over ${p.rateLimit}/s: ${shown}`);
    }
    if (round.rates.length !== p.keys) {
      throw new Error(`${round.workers} worker(s): only ${round.rates.length} of ${p.keys} keys were used`);
    }
    maxRps = Math.max(maxRps, s.maxRps);
    figures[`fleet_wall_s_${round.workers}_workers`] = round.wallS;
    figures[`fleet_requests_${round.workers}_workers`] = s.requests;
    figures[`fleet_mean_rps_per_key_${round.workers}_workers`] = Math.round(s.meanRps * 10) / 10;
    figures[`fleet_rate_limited_${round.workers}_workers`] = s.refused;
    figures[`fleet_worker_cpu_s_${round.workers}_workers`] = Math.round(round.workerCpuS * 10) / 10;
    figures[`fleet_emulator_cpu_s_${round.workers}_workers`] = Math.round(round.emulatorCpuS * 10) / 10;
    figures[`fleet_load_${round.workers}_workers`] = Math.round(round.load * 10) / 10;
  }
  figures.fleet_max_rps_per_key = maxRps;
  const one = rounds.find((r) => r.workers === 1);
  const most = rounds.at(-1);
  if (one && most && most.workers > 1) {
    figures[`fleet_speedup_${most.workers}_workers`] = Math.round((one.wallS / most.wallS) * 100) / 100;
  }
  return figures;
}
