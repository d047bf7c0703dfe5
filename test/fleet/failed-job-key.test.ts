/**
 * A sync or backfill job that failed for good does not hold its day or range: against a real
 * database and a real graphile-worker runner, an account's jobs run out of attempts (its key
 * variable is unset, so every try fails); `regwatch enqueue` asked again then removes each failed
 * job and adds a new one in its place, saying which, and the worker runs the new ones. The
 * scheduler's path (enqueue() from the daemon) replaces a failed sync job the same way.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadAccounts } from "../../src/accounts.ts";
import { loadConfig } from "../../src/config.ts";
import { accountDay } from "../../src/fleet/jobs.ts";
import { enqueue, openQueue } from "../../src/fleet/queue.ts";
import { type QueuedJob, queuedJobs } from "../../src/fleet/queue-counts.ts";
import { type RunningWorker, startWorker } from "../../src/fleet/worker.ts";
import { createLogger } from "../../src/logger.ts";
import { type FleetFiles, prepareFleet, writeAccountsFile } from "../fleet-daemon/fleet-fixture.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { waitUntil } from "../helpers/wait.ts";

let t: TestDatabase;
let files: FleetFiles;
let cliEnv: Record<string, string>;

beforeAll(async () => {
  t = await createTestDatabase();
  await prepareFleet(t.url, ["alpha"]);
  files = writeAccountsFile([{ name: "alpha", watch_url: "http://127.0.0.1:9/", api_key_env: "ALPHA_KEY" }]);
  cliEnv = {
    DATABASE_URL: t.url,
    REGWATCH_ACCOUNTS_FILE: files.accountsFile,
    REGWATCH_TZ: "UTC",
    REGWATCH_JOB_MAX_ATTEMPTS: "1",
  };
}, 120_000);

afterAll(async () => {
  files?.remove();
  await t?.drop();
});

const BACKFILL = ["--from", "2026-01-01", "--to", "2026-01-07"];

/** Once `count` jobs are all out of attempts: each by its key. */
async function failedForGood(count: number): Promise<Map<string, QueuedJob>> {
  return waitUntil(
    async () => {
      const jobs = await queuedJobs(t.db.sql);
      const failed = jobs.filter((j) => j.attempts >= j.maxAttempts && !j.lockedBy);
      return failed.length === count && jobs.length === count
        ? new Map(jobs.map((j) => [j.key ?? "", j]))
        : undefined;
    },
    { what: `${count} jobs failed for good` },
  );
}

describe("a sync or backfill job that failed for good", () => {
  it("is replaced by `regwatch enqueue` asked again, and the new job runs", async () => {
    const config = loadConfig(cliEnv);
    const accounts = loadAccounts(config)!;
    const lines: Record<string, unknown>[] = [];
    const log = createLogger({ level: "info", stream: { write: (l: string) => lines.push(JSON.parse(l)) } });
    let worker: RunningWorker | undefined;
    try {
      worker = await startWorker({ config, accounts, log, concurrency: 1, env: {}, pollIntervalMs: 200 });
      const syncKey = `alpha:sync:${accountDay(new Date(), "UTC")}`;
      const backfillKey = "alpha:backfill:2026-01-01..2026-01-07";
      const asks = [
        { key: syncKey, args: ["enqueue", "sync", "--account", "alpha"] },
        { key: backfillKey, args: ["enqueue", "backfill", "--account", "alpha", ...BACKFILL] },
      ];
      for (const ask of asks) expect((await runCli(ask.args, cliEnv)).stdout).toMatch(/^added /);
      const failed = await failedForGood(2);
      expect([...failed.keys()].sort()).toEqual([backfillKey, syncKey]);
      for (const job of failed.values()) expect(job.lastError).toContain("ALPHA_KEY");

      for (const ask of asks) {
        const again = await runCli(ask.args, cliEnv);
        expect(again.code).toBe(0);
        const line = `added +${ask.key.replaceAll(".", "\\.")} \\(job \\d+\\) in place of job ${failed.get(ask.key)!.id}, which had failed for good`;
        expect(again.stdout).toMatch(new RegExp(`^${line}$`, "m"));
      }

      // The new jobs run (and fail as the first did: the key is still unset).
      const again = await failedForGood(2);
      expect([...again.keys()].sort()).toEqual([backfillKey, syncKey]);
      const newIds = [...again.values()].map((j) => j.id);
      for (const old of failed.values()) expect(newIds).not.toContain(old.id);
      const started = lines.filter((l) => l.msg === "job started").map((l) => l.jobId);
      expect(started).toEqual(expect.arrayContaining(newIds));
    } finally {
      await worker?.stop(5_000);
    }
  });

  it("is replaced on the scheduler's path too; a reconcile job keeps its key", async () => {
    const queue = await openQueue(t.url);
    try {
      await queue.withPgClient((c) => c.query("delete from graphile_worker._private_jobs"));
      const sync = { kind: "sync" as const, account: "alpha", day: "2026-03-10" };
      const reconcile = { kind: "reconcile" as const, account: "alpha", day: "2026-03-10" };
      const first = await enqueue(queue, [sync, reconcile], { maxAttempts: 1 });
      await queue.withPgClient((c) =>
        c.query("update graphile_worker._private_jobs set attempts = max_attempts, last_error = 'boom'"),
      );
      const [syncAgain, reconcileAgain] = await enqueue(queue, [sync, reconcile], { maxAttempts: 1 });
      expect(syncAgain).toMatchObject({
        state: "replaced",
        added: true,
        replaced: { id: first[0]!.id, attempts: 1, lastError: "boom" },
      });
      expect(syncAgain!.id).not.toBe(first[0]!.id);
      expect(reconcileAgain).toMatchObject({ state: "failed", added: false, id: first[1]!.id });
      // (By key: queuedJobs orders its ids as text.)
      const jobs = (await queuedJobs(t.db.sql)).sort((x, y) => (x.key ?? "").localeCompare(y.key ?? ""));
      expect(jobs.map((j) => [j.key, j.attempts])).toEqual([
        ["alpha:reconcile:2026-03-10", 1],
        ["alpha:sync:2026-03-10", 0],
      ]);
    } finally {
      await queue.release();
    }
  });
});
