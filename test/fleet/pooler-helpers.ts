/**
 * What the tests of a pooler or database restarted under a fleet share (issue 48, point 8): two
 * accounts (a key each on one slow emulator) whose daily jobs two `regwatch worker` processes run
 * through a PgBouncer; while both jobs call the registry, `outage` cuts the database away and
 * brings it back. Then every job must end (finished, or failed and tried again until it finishes),
 * each account must have a run ended ok and none still running, and the registry must hear from
 * both accounts again. Only the test's timeout bounds the waits.
 */
import { expect } from "vitest";
import type { Sql } from "../../src/db/connect.ts";
import { queuedJobs } from "../../src/fleet/queue-counts.ts";
import { runCli } from "../helpers/cli.ts";
import type { EmulatorProcess } from "../helpers/emulator-process.ts";
import { waitUntil } from "../helpers/wait.ts";
import { spawnWorker, tenantKey, type WorkerProcess, writeAccountsFile } from "./fleet-helpers.ts";

export const OUTAGE_ACCOUNTS = ["alpha", "beta"] as const;
/** `regwatch emulator` arguments: each answer takes a while, so the jobs are in flight when cut. */
export const SLOW_REGISTRY = ["--businesses", "400", "--latency", "400"];

export interface OutageScenario {
  /** The fleet's DATABASE_URL (through the pooler). */
  databaseUrl: string;
  /** A connection of the test's own to the same database, for its checks. */
  sql: Sql;
  emulator: EmulatorProcess;
  /** Started here; the caller stops them (stopWorkers) in its afterAll. */
  workers: WorkerProcess[];
  /** Cuts the database away while both jobs run, and brings it back. */
  outage: () => Promise<void>;
}

export async function jobsSurviveOutage(s: OutageScenario): Promise<void> {
  const names = OUTAGE_ACCOUNTS;
  const env = accountsEnv(names, s.emulator, s.databaseUrl);
  const migrated = await runCli(["migrate"], env);
  expect(migrated.code).toBe(0);
  for (let i = 0; i < 2; i++) s.workers.push(spawnWorker(["--concurrency", "1"], env));
  const enqueued = await runCli(["enqueue", "sync", "--all"], env);
  expect(enqueued.stdout.match(/^added /gm)).toHaveLength(2);

  // Both accounts' runs are under way and have reached the registry.
  await waitUntil(async () => (await runningRuns(s.sql, names)).length === 2, {
    what: "both accounts' runs running",
    everyMs: 100,
  });
  await waitUntil(async () => (await requestsBy(s.emulator, names)).every((n) => n > 0), {
    what: "both accounts calling the registry",
    everyMs: 100,
  });
  await s.outage();
  const before = await requestsBy(s.emulator, names);

  try {
    await waitUntil(
      async () => {
        // A worker that died cannot finish its job: said at once, not at the test's timeout.
        const gone = s.workers.find((w) => w.child.exitCode !== null);
        if (gone)
          throw new Error(`a worker exited (${gone.child.exitCode}) instead of living through the outage`);
        return (await queueSettled(s.sql)) && (await allRunsEnded(s.sql, names));
      },
      { what: "every job done and every run ended once the database answered again", everyMs: 500 },
    );
  } finally {
    // What the workers said, for a failure's report (a test that passes prints nothing).
    if (!(await queueSettled(s.sql).catch(() => false)))
      for (const w of s.workers) console.error(w.output().split("\n").slice(-40).join("\n"));
  }
  const after = await requestsBy(s.emulator, names);
  expect(after.map((n, i) => n > before[i]!)).toEqual([true, true]);
  expect(await runningRuns(s.sql, names)).toEqual([]);
  for (const name of names) {
    const [ok] = await s.sql<{ n: number }[]>`
      select count(*)::int as n from ${s.sql(`regwatch_${name}`)}.runs where kind = 'sync' and status = 'ok'`;
    // One, or more when a job whose run had ended ok failed after it (its alerts' pass) and ran again.
    expect({ name, ok: ok!.n > 0 }).toEqual({ name, ok: true });
  }
  // The workers lived through it.
  for (const w of s.workers) expect(w.child.exitCode).toBeNull();
}

/** The environment of a fleet of `names` on `emulator` (writeTenantsFile's keys) through `databaseUrl`. */
export function accountsEnv(
  names: readonly string[],
  emulator: EmulatorProcess,
  databaseUrl: string,
): Record<string, string> {
  const file = writeAccountsFile(
    names.map((name) => ({
      name,
      watch_url: emulator.watchUrl,
      api_key_env: `${name.toUpperCase()}_KEY`,
      file_origins: emulator.fileOrigins.split(","),
      rate_limit: 10,
    })),
  );
  const env: Record<string, string> = {
    DATABASE_URL: databaseUrl,
    REGWATCH_ACCOUNTS_FILE: file,
    REGWATCH_TZ: "Europe/Budapest",
  };
  for (const name of names) env[`${name.toUpperCase()}_KEY`] = tenantKey(name);
  return env;
}

/** The accounts' runs still marked running, as `account:id`. */
export async function runningRuns(sql: Sql, names: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const name of names) {
    const rows = await sql<{ id: string }[]>`
      select id::text as id from ${sql(`regwatch_${name}`)}.runs where status = 'running' order by id`;
    found.push(...rows.map((r) => `${name}:${r.id}`));
  }
  return found;
}

/** Every account has runs and none of them is still running. */
export async function allRunsEnded(sql: Sql, names: readonly string[]): Promise<boolean> {
  for (const name of names) {
    const [row] = await sql<{ runs: number; running: number }[]>`
      select count(*)::int as runs, count(*) filter (where status = 'running')::int as running
      from ${sql(`regwatch_${name}`)}.runs`;
    if (!row || row.runs === 0 || row.running > 0) return false;
  }
  return true;
}

/** No job of the accounts left in the queue: each finished (a job that finished is removed). */
export async function queueSettled(sql: Sql): Promise<boolean> {
  return (await queuedJobs(sql)).length === 0;
}

/** Requests the emulator served for each account's key, in `names`' order. */
export async function requestsBy(emulator: EmulatorProcess, names: readonly string[]): Promise<number[]> {
  return Promise.all(
    names.map(async (name) => {
      const stats = await emulator.admin<{ total: number }>(
        `stats?key=${encodeURIComponent(tenantKey(name))}`,
      );
      return stats.total;
    }),
  );
}

/** Stops the workers (SIGTERM, then SIGKILL for one that does not stop). */
export async function stopWorkers(workers: readonly WorkerProcess[]): Promise<void> {
  for (const w of workers) if (w.child.exitCode === null) w.child.kill("SIGTERM");
  await Promise.all(
    workers.map(async (w) => {
      const timer = setTimeout(() => w.child.kill("SIGKILL"), 40_000);
      await w.exited;
      clearTimeout(timer);
    }),
  );
}
