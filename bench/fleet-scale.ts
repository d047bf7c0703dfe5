/**
 * The fleet at scale (issues 38 and 50): 1,000 accounts (`--accounts N`) on one emulator (a key
 * and a small world each), on a fresh database, every regwatch process going through a PgBouncer
 * of the bench's own in transaction mode (Debian's /usr/sbin/pgbouncer; `?prepare=false`), as a
 * fleet this size would run: `regwatch migrate` of every account (timed), `migrate` again with
 * nothing to do (timed), `enqueue sync --all` (timed), 4 `regwatch worker --concurrency 4`
 * processes doing one morning's sync of every account (lists made the day before the last
 * complete day), then `regwatch status --fleet` (timed). A sampler counts the connections
 * Postgres holds for the database in pg_stat_activity every 100 ms throughout. No key may pass its
 * rate in any second, every account must end with an ok sync run, and no job may fail.
 *
 *   fleet_scale_accounts          accounts synced
 *   fleet_scale_max_connections   most connections seen at Postgres at once (target ≤ 30)
 *   fleet_scale_migrate_s         `regwatch migrate` of them all on a fresh database (target ≤ 120 at 1,000)
 *   fleet_scale_migrate_noop_s    `regwatch migrate` again, every schema current (target ≤ 5)
 *   fleet_scale_enqueue_s         `regwatch enqueue sync --all`: a day's job per account (target ≤ 10)
 *   fleet_scale_status_s          `regwatch status --fleet` once every account has synced (target ≤ 2)
 *   fleet_scale_wall_s            from the workers' start to the empty queue
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import postgres from "postgres";
import { addDays, lastCompleteDay } from "../src/dates.ts";
import { type RunningEmulator, startEmulator } from "../src/emulator/index.ts";
import { startPgBouncer } from "../test/helpers/pgbouncer.ts";
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
  /** The Postgres server (PgBouncer's target) and a fresh database on it, migrated: its URL. */
  serverUrl: string;
  database: (name: string) => Promise<string>;
}

export const FLEET_SCALE_FULL = { accounts: 1000, workers: 4, concurrency: 4, lists: 1, items: 10 };
export const FLEET_SCALE_QUICK = { accounts: 12, workers: 2, concurrency: 2, lists: 1, items: 5 };
/** The smoke run's round: every step and key of the full one, at a size of seconds. */
export const FLEET_SCALE_SMOKE = { accounts: 3, workers: 1, concurrency: 2, lists: 1, items: 5 };
/** Server connections PgBouncer may open for the fleet's database (the rest wait their turn). */
const POOL_SIZE = 24;

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
    // Each key's world of its own: 1,000 businesses are enough for its lists and keep 1,000 worlds
    // in memory (5,000 each, as at 200 accounts, took over 2 GB and minutes to build).
    businesses: Math.max(1_000, p.lists * p.items * 10),
    rateLimit: p.rateLimit,
    fileRateLimit: p.rateLimit,
    tenants: keys.map((apiKey) => ({
      apiKey,
      lists: Array.from({ length: p.lists }, (_, i) => ({ name: `w${i}`, createdAt, size: p.items })),
    })),
  });
  const url = await p.database("regwatch_bench_fleet_scale");
  const bouncer = await startPgBouncer(p.serverUrl, { poolSize: POOL_SIZE });
  const sampler = sampleConnections(url);
  try {
    const pooled = bouncer.urlFor(new URL(url).pathname.slice(1));
    const env: Env = { ...(await accountsEnv(dir, emulator, keys, p.rateLimit)), DATABASE_URL: pooled };
    const migrateS = await timed(() => regwatch(["migrate"], env));
    const again = await timedOutput(() => regwatch(["migrate"], env));
    const current = again.output
      .split("\n")
      .filter((l) => / is up to date$/.test(l) && l.includes("regwatch_"));
    if (current.length !== p.accounts)
      throw new Error(`a second migrate found ${current.length} of ${p.accounts} account schemas current`);
    const enqueued = await timedOutput(() => regwatch(["enqueue", "sync", "--all"], env));
    const queued = enqueued.output.split("\n").filter((l) => l.startsWith("added "));
    if (queued.length !== p.accounts)
      throw new Error(`enqueue added ${queued.length} jobs for ${p.accounts}`);
    // Every account migrated, none synced yet, a job each in the queue.
    const statusQueued = await timed(() => regwatch(["status", "--fleet"], env));
    // Said as measured: a round that fails later still leaves these on standard error.
    process.stderr.write(
      `fleet at scale, ${p.accounts} accounts: migrate ${migrateS.toFixed(1)} s, again ${again.s.toFixed(2)} s, ` +
        `enqueue ${enqueued.s.toFixed(2)} s, status --fleet ${statusQueued.toFixed(2)} s (jobs queued)\n`,
    );
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
      const status = await timedOutput(() => regwatch(["status", "--fleet", "--json"], env));
      const shown = (JSON.parse(status.output) as { accounts: { lastRun: { status: string } | null }[] })
        .accounts;
      if (shown.length !== p.accounts || shown.some((a) => a.lastRun?.status !== "ok"))
        throw new Error(`status --fleet showed ${shown.length} accounts, not every one synced ok`);
      const maxConnections = await sampler.stop();
      process.stdout.write(
        `fleet at scale: ${p.accounts} accounts, ${p.workers} workers at --concurrency ${p.concurrency}, ` +
          `through PgBouncer (transaction mode, ${POOL_SIZE} server connections): ` +
          `migrate ${migrateS.toFixed(1)} s (again ${again.s.toFixed(1)} s), enqueue ${enqueued.s.toFixed(1)} s, ` +
          `sync ${wallS.toFixed(1)} s, status --fleet ${status.s.toFixed(2)} s, ${s.requests} requests, ` +
          `busiest second of a key ${s.maxRps} (limit ${p.rateLimit}), at most ${maxConnections} connections\n`,
      );
      return {
        fleet_scale_accounts: p.accounts,
        fleet_scale_max_connections: maxConnections,
        fleet_scale_migrate_s: Math.round(migrateS * 10) / 10,
        fleet_scale_migrate_noop_s: Math.round(again.s * 100) / 100,
        fleet_scale_enqueue_s: Math.round(enqueued.s * 100) / 100,
        fleet_scale_status_s: Math.round(status.s * 100) / 100,
        fleet_scale_wall_s: Math.round(wallS * 10) / 10,
      };
    } finally {
      await pool.stop().catch(() => {});
      await sql.end();
    }
  } finally {
    await sampler.stop();
    await bouncer.stop();
    await emulator.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function timed(body: () => Promise<unknown>): Promise<number> {
  return (await timedOutput(body)).s;
}

/** Seconds `body` took, and what it answered (a command's standard output). */
async function timedOutput<T>(body: () => Promise<T>): Promise<{ s: number; output: T }> {
  const started = performance.now();
  const output = await body();
  return { s: (performance.now() - started) / 1000, output };
}

/** Counts the database's connections (the sampler's own aside) every SAMPLE_MS; stop gives the most. */
function sampleConnections(url: string): { stop(): Promise<number> } {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  let most = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      // A sample the busy server does not answer in time is skipped, not the bench's end.
      try {
        const [row] = await sql<{ n: number }[]>`
          select count(*)::int as n from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid()`;
        most = Math.max(most, row!.n);
      } catch {}
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
  return `c${String(i + 1).padStart(4, "0")}`;
}

async function checkRuns(sql: postgres.Sql, accounts: number) {
  for (let i = 0; i < accounts; i++) {
    const schema = `regwatch_${accountName(i)}`;
    const runs = await sql<
      { kind: string; status: string }[]
    >`select kind, status from ${sql(schema)}.runs`.simple();
    if (!runs.some((r) => r.kind === "sync") || runs.some((r) => r.status !== "ok"))
      throw new Error(`account ${schema}: runs ${JSON.stringify(runs)}`);
  }
}
