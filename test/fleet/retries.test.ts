/**
 * A job whose key the registry refuses stops at once and is not tried again (the refusal is
 * recorded and holds the account's next job back), while the other account's job completes. A worker stopped with SIGTERM lets its job's windows commit,
 * gives the job back to the queue and exits 0.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, localDateTime } from "../../src/dates.ts";
import { queuedJobs } from "../../src/fleet/queue-counts.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { type EmulatorProcess, startEmulatorProcess } from "../helpers/emulator-process.ts";
import { waitUntil } from "../helpers/wait.ts";
import { spawnWorker, type WorkerProcess, writeAccountsFile } from "./fleet-helpers.ts";

const TZ = "Europe/Budapest";
const BAD_KEY = "refused-key-0123456789abcdef";

describe("retries and stops", () => {
  let emulator: EmulatorProcess;
  /** The good account at the registry's full rate, and at 4 requests a second (a backfill long enough to stop). */
  let file: string;
  let slowFile: string;
  const workers: WorkerProcess[] = [];
  const databases: TestDatabase[] = [];

  beforeAll(async () => {
    emulator = await startEmulatorProcess(["--seed", "41", "--businesses", "3000"]);
    const records = await emulator.admin<{ tax_id: string; type: string }[]>("businesses?limit=100");
    const taxIds = records
      .filter((r) => r.type !== "budget_orgs")
      .map((r) => r.tax_id)
      .slice(0, 12);
    const today = localDateTime(new Date(), TZ).date;
    await emulator.admin("lists", { name: "one", createdAt: addDays(today, -90), taxIds });
    file = writeAccountsFile([
      { name: "good", watch_url: emulator.watchUrl, api_key_env: "GOOD_KEY" },
      { name: "bad", watch_url: emulator.watchUrl, api_key_env: "BAD_KEY" },
    ]);
    slowFile = writeAccountsFile([
      { name: "good", watch_url: emulator.watchUrl, api_key_env: "GOOD_KEY", rate_limit: 4 },
      { name: "bad", watch_url: emulator.watchUrl, api_key_env: "BAD_KEY" },
    ]);
  });
  afterAll(async () => {
    for (const w of workers) if (w.child.exitCode === null) w.child.kill("SIGKILL");
    await Promise.all(workers.map((w) => w.exited));
    for (const t of databases) await t.drop();
    await emulator?.stop();
  });

  async function fleetEnv(extra: Record<string, string> = {}) {
    const t = await createTestDatabase();
    databases.push(t);
    const env = {
      DATABASE_URL: t.url,
      REGWATCH_ACCOUNTS_FILE: file,
      REGWATCH_TZ: TZ,
      GOOD_KEY: emulator.apiKey,
      BAD_KEY,
      ...extra,
    };
    return { t, env };
  }

  it("stops a refused account's job without retrying it and keeps it from running again; the other account's job completes", async () => {
    const { t, env } = await fleetEnv({ REGWATCH_JOB_MAX_ATTEMPTS: "2" });
    const worker = spawnWorker(["--concurrency", "2"], env);
    workers.push(worker);
    const enqueued = await runCli(["enqueue", "sync", "--all"], env);
    expect(enqueued.code).toBe(0);

    await waitUntil(
      async () => {
        const jobs = await queuedJobs(t.db.sql);
        const stopped = worker.lines.some(
          (l) => l.account === "bad" && String(l.msg).startsWith("job stopped"),
        );
        return jobs.length === 0 && stopped ? true : undefined;
      },
      { what: "the good job done and the bad one stopped", process: worker.child, everyMs: 200 },
    );
    expect(worker.output()).not.toContain(BAD_KEY);
    // Tried once: a refused key is not tried again by the queue.
    expect(worker.lines.filter((l) => l.account === "bad" && l.msg === "job started")).toHaveLength(1);
    const [refusal] = await t.db.sql`select key_variable, http_status from regwatch_bad.key_refusals`;
    expect(refusal).toMatchObject({ key_variable: "BAD_KEY", http_status: 401 });

    const runs = await t.db.sql`select status from regwatch_good.runs where kind = 'sync'`;
    expect(runs.map((r) => r.status)).toEqual(["ok"]);

    // Asked again: the good account's job is already done today, the bad one's is held back by its key.
    await runCli(["enqueue", "reconcile", "--account", "bad"], env);
    await waitUntil(
      () =>
        worker.lines.find(
          (l) =>
            l.account === "bad" &&
            String(l.msg).startsWith("job not run: the registry refused the key in BAD_KEY"),
        ),
      { what: "the bad account's next job held back", process: worker.child, everyMs: 200 },
    );
    expect(worker.lines.filter((l) => l.account === "bad" && l.msg === "job started")).toHaveLength(2);
  });

  it("stops on SIGTERM within --stop-timeout, giving the running job back to the queue", async () => {
    const { t, env } = await fleetEnv({ REGWATCH_ACCOUNTS_FILE: slowFile });
    const worker = spawnWorker(["--stop-timeout", "20"], env);
    workers.push(worker);
    const today = localDateTime(new Date(), TZ).date;
    const range = ["--from", addDays(today, -89), "--to", addDays(today, -2)];
    const enqueued = await runCli(["enqueue", "backfill", "--account", "good", ...range], env);
    expect(enqueued.code).toBe(0);
    await waitUntil(
      async () => {
        const [ready] = await t.db.sql`select to_regclass('regwatch_good.coverage') is not null as ok`;
        if (!ready!.ok) return false;
        const [row] = await t.db.sql<{ n: number }[]>`
          select count(*)::int as n from regwatch_good.coverage`;
        return row!.n > 0;
      },
      { what: "a committed window", process: worker.child, everyMs: 25 },
    );
    worker.child.kill("SIGTERM");
    expect(await worker.exited).toBe(0);

    const [job] = await queuedJobs(t.db.sql);
    expect(job).toMatchObject({ account: "good", task: "regwatch_backfill", attempts: 1, lockedBy: null });
    const [row] = await t.db.sql`select stop_reason, jobs_running from regwatch.worker_heartbeats`;
    expect(row).toMatchObject({ stop_reason: "stopped", jobs_running: 0 });
    const runs = await t.db.sql`select status from regwatch_good.runs where kind = 'backfill'`;
    expect(runs.map((r) => r.status)).toEqual(["partial"]);
  });
});
