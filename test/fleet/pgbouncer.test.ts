/**
 * A fleet through PgBouncer in transaction mode (issue 38): `migrate`, `enqueue`, a worker and the
 * run lock all go through a real PgBouncer (Debian's package, started by the test with a generated
 * config), which hands server connections to other clients between transactions and refuses a
 * search_path among the startup parameters. Two accounts on one emulator (a key each) are synced
 * by one worker; a run lock held through the pooler makes `sync --account` exit 75, and once it is
 * released the same command runs.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { addDays, localDateTime } from "../../src/dates.ts";
import { forSchema, openDatabase } from "../../src/db/connect.ts";
import { queuedJobs } from "../../src/fleet/queue-counts.ts";
import { acquireRunLock } from "../../src/run/lock.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { type EmulatorProcess, startEmulatorProcess } from "../helpers/emulator-process.ts";
import { type Bouncer, startPgBouncer } from "../helpers/pgbouncer.ts";
import { waitUntil } from "../helpers/wait.ts";
import {
  spawnWorker,
  tenantKey,
  type WorkerProcess,
  writeAccountsFile,
  writeTenantsFile,
} from "./fleet-helpers.ts";

const NAMES = ["alpha", "beta"] as const;
const KEYS = NAMES.map(tenantKey);

let bouncer: Bouncer;
let emulator: EmulatorProcess;
let t: TestDatabase;
let worker: WorkerProcess | undefined;

beforeAll(async () => {
  t = await createTestDatabase();
  bouncer = await startPgBouncer(inject("pgServerUrl"));
  const today = localDateTime(new Date(), "Europe/Budapest").date;
  const tenants = writeTenantsFile(NAMES, { createdAt: addDays(today, -6), size: 12, firstSeed: 70 });
  emulator = await startEmulatorProcess(["--tenants", tenants, "--businesses", "400", "--rate-limit", "50"]);
}, 120_000);
afterAll(async () => {
  if (worker && worker.child.exitCode === null) worker.child.kill("SIGKILL");
  await worker?.exited;
  await emulator?.stop();
  await bouncer?.stop();
  await t?.drop();
});

describe("a fleet through PgBouncer in transaction mode", () => {
  it("migrates, queues and syncs two accounts, and keeps the run lock", { timeout: 240_000 }, async () => {
    const url = bouncer.urlFor(t.name);
    const file = writeAccountsFile(
      NAMES.map((name) => ({
        name,
        watch_url: emulator.watchUrl,
        api_key_env: `${name.toUpperCase()}_KEY`,
        file_origins: emulator.fileOrigins.split(","),
        rate_limit: 10,
      })),
    );
    const env = {
      DATABASE_URL: url,
      REGWATCH_ACCOUNTS_FILE: file,
      REGWATCH_TZ: "Europe/Budapest",
      ALPHA_KEY: KEYS[0]!,
      BETA_KEY: KEYS[1]!,
    };
    const migrated = await runCli(["migrate"], env);
    expect(migrated.stderr).toBe("");
    expect(migrated.code).toBe(0);
    expect(migrated.stdout).toMatch(/^schema regwatch_beta: applied \d+ migration\(s\)$/m);

    // The run lock, taken through the pooler, is seen by a command that also goes through it.
    const through = await openDatabase({ databaseUrl: url, dataDir: "" }, { max: 2 });
    try {
      const alpha = forSchema(through, "regwatch_alpha");
      const lock = await acquireRunLock(alpha.sql);
      const refused = await runCli(["sync", "--account", "alpha"], env, 120_000);
      expect(refused.stderr).toMatch(/holds the run lock; try again later or pass --wait SECONDS/);
      expect(refused.code).toBe(75);
      await lock.verify();
      await lock.release();
    } finally {
      await through.close();
    }

    worker = spawnWorker(["--concurrency", "2"], env);
    await waitUntil(
      async () => {
        const [row] = await t.db.sql<{ n: number }[]>`
          select count(*)::int as n from regwatch.worker_heartbeats where stopped_at is null`;
        return row!.n === 1;
      },
      { what: "the worker's heartbeat", process: worker.child },
    );
    const enqueued = await runCli(["enqueue", "sync", "--all"], env);
    expect(enqueued.stderr).toBe("");
    expect(enqueued.stdout.match(/^added /gm)).toHaveLength(2);
    await waitUntil(() => worker!.lines.filter((l) => l.msg === "job finished").length === 2 || undefined, {
      what: "both jobs finished",
      process: worker.child,
      everyMs: 200,
    });
    expect(await queuedJobs(t.db.sql)).toEqual([]);
    for (const name of NAMES) {
      const rows = await t.db.sql<{ lists: number; items: number; ok: number }[]>`
        select (select count(*)::int from ${t.db.sql(`regwatch_${name}`)}.watch_lists) as lists,
               (select count(*)::int from ${t.db.sql(`regwatch_${name}`)}.watched_items) as items,
               (select count(*)::int from ${t.db.sql(`regwatch_${name}`)}.runs
                where kind = 'sync' and status = 'ok') as ok`;
      expect({ name, ...rows[0] }).toEqual({ name, lists: 1, items: 12, ok: 1 });
    }
    // Nothing failed on the way (a statement in the wrong schema, a lost prepared statement).
    expect(worker.lines.filter((l) => (l.level as number) >= 50)).toEqual([]);

    // The lock is free again: the command runs through the pooler.
    const synced = await runCli(["sync", "--account", "alpha"], env, 120_000);
    expect(synced.stderr).not.toMatch(/regwatch: /);
    expect(synced.code).toBe(0);
    worker.child.kill("SIGTERM");
    expect(await worker.exited).toBe(0);
  });
});
