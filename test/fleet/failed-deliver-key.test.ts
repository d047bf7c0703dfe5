/**
 * A delivery job that failed for good does not hold its key: against a real database and a real
 * graphile-worker runner, an account's `deliver` job runs out of attempts (its key variable is
 * unset, so every try fails), the key is then set, and the scheduler's next ask for a delivery
 * removes the failed job, adds a new one which the worker runs, and the message goes out. The
 * scheduler's log says which job was replaced and why. (Sync and backfill: failed-job-key.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadAccounts } from "../../src/accounts.ts";
import { loadConfig } from "../../src/config.ts";
import { accountSchedules } from "../../src/daemon/fleet-plan.ts";
import { FleetScheduler } from "../../src/daemon/fleet-scheduler.ts";
import type { Sql } from "../../src/db/connect.ts";
import { enqueue, openQueue } from "../../src/fleet/queue.ts";
import { queuedJobs } from "../../src/fleet/queue-counts.ts";
import { type RunningWorker, startWorker } from "../../src/fleet/worker.ts";
import { createLogger } from "../../src/logger.ts";
import {
  accountSql,
  type FleetFiles,
  prepareFleet,
  writeAccountsFile,
} from "../fleet-daemon/fleet-fixture.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { waitUntil } from "../helpers/wait.ts";

let t: TestDatabase;
let files: FleetFiles;
let alpha: Sql;

beforeAll(async () => {
  t = await createTestDatabase();
  await prepareFleet(t.url, ["alpha"]);
  alpha = accountSql(t.url, "alpha");
  files = writeAccountsFile([{ name: "alpha", watch_url: "http://127.0.0.1:9/", api_key_env: "ALPHA_KEY" }]);
}, 120_000);

afterAll(async () => {
  await alpha?.end();
  files?.remove();
  await t?.drop();
});

function capture() {
  const lines: Record<string, unknown>[] = [];
  const log = createLogger({ level: "debug", stream: { write: (l: string) => lines.push(JSON.parse(l)) } });
  return { log, lines };
}

describe("a deliver job that failed for good", () => {
  it("is replaced by the next one asked for, which runs and delivers", async () => {
    const config = loadConfig({
      DATABASE_URL: t.url,
      REGWATCH_ACCOUNTS_FILE: files.accountsFile,
      REGWATCH_TZ: "UTC",
    });
    const accounts = loadAccounts(config)!;
    // A message the outbox holds, due now, on the NOTIFY channel (no outside receiver needed).
    const [rule] = await alpha<{ id: number }[]>`
      insert into ${alpha.t.alert_rules} (name, channel, target) values ('n', 'notify', 'regwatch_test') returning id`;
    await alpha`
      insert into ${alpha.t.alert_deliveries} (rule_id, kind, alert_ids, channel, target, oldest_change, next_attempt_at)
      values (${rule!.id}, 'alert', '{}', 'notify', 'regwatch_test', current_date - 1, now() - interval '1 minute')`;
    // Today's slot is done: the scheduler asks only for deliveries.
    await alpha`insert into ${alpha.t.runs} (kind, trigger, status, started_at, finished_at) values ('sync', 'schedule', 'ok', now(), now())`;

    const env: NodeJS.ProcessEnv = {};
    const workerLog = capture();
    const schedulerLog = capture();
    const queue = await openQueue(t.url);
    let worker: RunningWorker | undefined;
    const scheduler = new FleetScheduler({
      sql: t.db.sql,
      accounts: accountSchedules(accounts, config),
      enqueue: (jobs) => enqueue(queue, jobs, { maxAttempts: 1 }),
      log: schedulerLog.log,
      deliverEveryMs: 0,
    });
    try {
      worker = await startWorker({
        config,
        accounts,
        log: workerLog.log,
        concurrency: 1,
        env,
        pollIntervalMs: 200,
      });
      expect(await scheduler.check("catchup")).toEqual([{ kind: "deliver", account: "alpha" }]);
      // No key: the job's only attempt fails, and the job stays failed under its key.
      const failed = await waitUntil(
        async () => {
          const [job] = await queuedJobs(t.db.sql);
          return job && job.attempts >= job.maxAttempts && !job.lockedBy ? job : undefined;
        },
        { what: "the deliver job failed for good" },
      );
      expect(failed.key).toBe("alpha:deliver");
      expect(failed.lastError).toContain("ALPHA_KEY");

      env.ALPHA_KEY = "alpha-key-value";
      expect(await scheduler.check("catchup")).toEqual([{ kind: "deliver", account: "alpha" }]);
      const replaced = schedulerLog.lines.find((l) => l.failedJobId === failed.id);
      expect(replaced?.msg).toMatch(
        /had failed for good \(1 attempts\); it was removed and job \d+ added in its place/,
      );
      expect(replaced?.lastError).toContain("ALPHA_KEY");

      await waitUntil(
        async () => {
          const [row] = await alpha<{ status: string }[]>`select status from ${alpha.t.alert_deliveries}`;
          return row?.status === "sent";
        },
        { what: "the message sent" },
      );
      await waitUntil(async () => (await queuedJobs(t.db.sql)).length === 0, { what: "the queue empty" });
      expect(workerLog.lines.some((l) => l.msg === "job finished" && l.kind === "deliver")).toBe(true);
    } finally {
      await scheduler.stop();
      await worker?.stop(5_000);
      await queue.release();
    }
  });
});
