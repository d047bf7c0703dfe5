/**
 * A worker's connections grow with the work in flight, not with the accounts it serves (issue
 * 38): one worker at --concurrency 2 syncs eight accounts (one emulator, a key and a small world
 * each) while the test samples pg_stat_activity; it never holds more than concurrency + 3.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, localDateTime } from "../../src/dates.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { type EmulatorProcess, startEmulatorProcess } from "../helpers/emulator-process.ts";
import { waitUntil } from "../helpers/wait.ts";
import {
  spawnWorker,
  tenantKey,
  type WorkerProcess,
  writeAccountsFile,
  writeTenantsFile,
} from "./fleet-helpers.ts";

const NAMES = ["a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8"];
const CONCURRENCY = 2;

let emulator: EmulatorProcess;
let t: TestDatabase;
let worker: WorkerProcess | undefined;

beforeAll(async () => {
  t = await createTestDatabase();
  const today = localDateTime(new Date(), "Europe/Budapest").date;
  const tenants = writeTenantsFile(NAMES, { createdAt: addDays(today, -5), size: 8, firstSeed: 90 });
  emulator = await startEmulatorProcess(["--tenants", tenants, "--businesses", "300", "--rate-limit", "200"]);
}, 120_000);
afterAll(async () => {
  if (worker && worker.child.exitCode === null) worker.child.kill("SIGKILL");
  await worker?.exited;
  await emulator?.stop();
  await t?.drop();
});

/** Connections to the test database, the test's own pool aside. */
async function connections(): Promise<number> {
  const [row] = await t.db.sql<{ n: number }[]>`
    select count(*)::int as n from pg_stat_activity
    where datname = current_database() and application_name <> ${`regwatch/${process.pid}`}`;
  return row!.n;
}

describe("a worker serving many accounts", () => {
  it(`holds at most --concurrency + 3 connections`, { timeout: 240_000 }, async () => {
    const file = writeAccountsFile(
      NAMES.map((name) => ({
        name,
        watch_url: emulator.watchUrl,
        api_key_env: `${name.toUpperCase()}_KEY`,
        file_origins: emulator.fileOrigins.split(","),
      })),
    );
    const env: Record<string, string> = { DATABASE_URL: t.url, REGWATCH_ACCOUNTS_FILE: file };
    for (const name of NAMES) env[`${name.toUpperCase()}_KEY`] = tenantKey(name);
    expect((await runCli(["migrate"], env)).code).toBe(0);
    worker = spawnWorker(["--concurrency", String(CONCURRENCY)], env);
    await waitUntil(
      () => worker!.lines.some((l) => l.msg === "worker started; waiting for jobs") || undefined,
      {
        what: "the worker's start",
        process: worker.child,
      },
    );
    expect((await runCli(["enqueue", "sync", "--all"], env)).code).toBe(0);
    let peak = 0;
    await waitUntil(
      async () => {
        peak = Math.max(peak, await connections());
        return worker!.lines.filter((l) => l.msg === "job finished").length === NAMES.length || undefined;
      },
      { what: "every account's job finished", process: worker.child, everyMs: 20 },
    );
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThanOrEqual(CONCURRENCY + 3);
    worker.child.kill("SIGTERM");
    expect(await worker.exited).toBe(0);
  });
});
