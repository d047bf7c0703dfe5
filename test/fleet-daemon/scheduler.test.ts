/**
 * The fleet scheduler against a real database, its clock given: each account's sync job is asked
 * for at the account's own time and for its own local day, a missed slot is caught up, the resume
 * rule reads the account's own runs, outboxes with messages due get a delivery job (once a
 * minute), and an account that cannot be read holds back no other. The queue's dedupe makes the
 * repeated asks of one check after another a single job.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { accountSchedules, type ScheduledJob } from "../../src/daemon/fleet-plan.ts";
import { FleetScheduler } from "../../src/daemon/fleet-scheduler.ts";
import type { Sql } from "../../src/db/connect.ts";
import { enqueue } from "../../src/fleet/queue.ts";
import { queuedJobs } from "../../src/fleet/queue-counts.ts";
import { silentLogger } from "../../src/logger.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { accountSql, prepareFleet } from "./fleet-fixture.ts";

let t: TestDatabase;
const sql: Record<string, Sql> = {};
const base = { schedule: "0 0 2 * * *", tz: "UTC" };
// alpha: 02:00 UTC (the global schedule); beta: 23:00 in New York (03:00 or 04:00 UTC, the day before there).
const accounts = [
  { name: "alpha", schema: "regwatch_alpha" },
  { name: "beta", schema: "regwatch_beta", schedule: "0 0 23 * * *", timezone: "America/New_York" },
];
const at = (iso: string) => new Date(iso);

beforeAll(async () => {
  t = await createTestDatabase();
  await prepareFleet(t.url, ["alpha", "beta"]);
  for (const a of ["alpha", "beta"]) sql[a] = accountSql(t.url, a);
}, 120_000);

afterEach(async () => {
  for (const s of Object.values(sql)) await s`truncate ${s.t.runs}, ${s.t.alert_rules} cascade`;
});

afterAll(async () => {
  for (const s of Object.values(sql)) await s.end();
  await t?.drop();
});

async function insertRun(account: string, startedAt: string, status = "ok", error: string | null = null) {
  const started = at(startedAt);
  await sql[account]!`
    insert into ${sql[account]!.t.runs} (kind, trigger, status, started_at, finished_at, error)
    values ('sync', 'schedule', ${status}, ${started}, ${new Date(started.getTime() + 60_000)}, ${error})`;
}

/** A scheduler whose enqueue records what it was asked for; `now` moves as the test says. */
function scheduler(list = accounts) {
  let now = at("2026-03-10T01:00:00Z");
  const asked: ScheduledJob[][] = [];
  const s = new FleetScheduler({
    sql: t.db.sql,
    accounts: accountSchedules(list, base),
    enqueue: async (jobs) => {
      asked.push(jobs);
      return undefined;
    },
    log: silentLogger,
    now: () => now,
  });
  return {
    s,
    asked,
    check: (iso: string) => {
      now = at(iso);
      return s.check("catchup");
    },
  };
}

describe("fleet scheduler", () => {
  it("asks for each account's sync at its own time, for the slot's day in its own zone", async () => {
    await insertRun("alpha", "2026-03-09T02:01:00Z"); // alpha's 9 March slot done
    await insertRun("beta", "2026-03-09T03:01:00Z"); // beta's 8 March 23:00 (New York) slot done
    const { s, check } = scheduler();
    try {
      expect(await check("2026-03-10T01:00:00Z")).toEqual([]);
      // 02:00 UTC: alpha's slot of 10 March has come; beta's (23:00 New York = 03:00 UTC) not yet.
      expect(await check("2026-03-10T02:00:30Z")).toEqual([
        { kind: "sync", account: "alpha", day: "2026-03-10" },
      ]);
      // 03:00 UTC: beta's slot, 23:00 on 9 March in New York; alpha still due (its job not run yet).
      expect(await check("2026-03-10T03:00:30Z")).toEqual([
        { kind: "sync", account: "alpha", day: "2026-03-10" },
        { kind: "sync", account: "beta", day: "2026-03-09" },
      ]);
      // The job ran: the account's own run after the slot completes it.
      await insertRun("alpha", "2026-03-10T02:05:00Z");
      expect(await check("2026-03-10T03:10:00Z")).toEqual([
        { kind: "sync", account: "beta", day: "2026-03-09" },
      ]);
    } finally {
      await s.stop();
    }
  });

  it("catches up a slot missed while the daemon was down, and follows the resume rule per account", async () => {
    await insertRun("alpha", "2026-03-06T02:01:00Z"); // four days without a run
    await insertRun("beta", "2026-03-10T03:01:00Z", "failed"); // beta's slot tried once, failed
    const { s, check } = scheduler();
    try {
      // The latest slot only: its sync covers every day since the last one.
      expect(await check("2026-03-10T03:05:00Z")).toEqual([
        { kind: "sync", account: "alpha", day: "2026-03-10" },
      ]);
      // beta waits out its backoff (15 minutes after the failed attempt ended), then is retried.
      expect(await check("2026-03-10T03:20:00Z")).toEqual([
        { kind: "sync", account: "alpha", day: "2026-03-10" },
        { kind: "sync", account: "beta", day: "2026-03-09" },
      ]);
    } finally {
      await s.stop();
    }
  });

  it("asks for a delivery pass when an outbox has messages due, at most once a minute", async () => {
    await insertRun("alpha", "2026-03-10T02:01:00Z");
    await insertRun("beta", "2026-03-10T03:01:00Z");
    const [rule] = await sql.beta!<{ id: number }[]>`
      insert into ${sql.beta!.t.alert_rules} (name, channel, target) values ('r', 'webhook', 'http://127.0.0.1:9/') returning id`;
    await sql.beta!`
      insert into ${sql.beta!.t.alert_deliveries} (rule_id, kind, alert_ids, channel, target, oldest_change, next_attempt_at)
      values (${rule!.id}, 'alert', '{}', 'webhook', 'http://127.0.0.1:9/', '2026-03-09', ${at("2026-03-10T03:30:00Z")})`;
    const { s, check } = scheduler();
    try {
      expect(await check("2026-03-10T03:29:45Z")).toEqual([]); // its backoff is not over
      expect(await check("2026-03-10T03:30:30Z")).toEqual([]); // due, but looked at 45 s ago
      expect(await check("2026-03-10T03:30:50Z")).toEqual([{ kind: "deliver", account: "beta" }]);
      expect(await check("2026-03-10T03:31:20Z")).toEqual([]);
    } finally {
      await s.stop();
    }
  });

  it("goes on with the other accounts when one cannot be read", async () => {
    const { s, check } = scheduler([{ name: "gamma", schema: "regwatch_gamma" }, ...accounts]);
    try {
      expect(await check("2026-03-10T03:05:00Z")).toEqual([
        { kind: "sync", account: "alpha", day: "2026-03-10" },
        { kind: "sync", account: "beta", day: "2026-03-09" },
      ]);
    } finally {
      await s.stop();
    }
  });

  it("asked twice, the queue holds one job per account and day", async () => {
    const s = new FleetScheduler({
      sql: t.db.sql,
      accounts: accountSchedules(accounts, base),
      enqueue: (jobs) => enqueue({ databaseUrl: t.url, log: silentLogger }, jobs, { maxAttempts: 3 }),
      log: silentLogger,
      now: () => at("2026-03-10T03:05:00Z"),
    });
    try {
      await s.check("schedule");
      await s.check("catchup");
      const keys = (await queuedJobs(t.db.sql)).map((j) => j.key).sort();
      expect(keys).toEqual(["alpha:sync:2026-03-10", "beta:sync:2026-03-09"]);
    } finally {
      await s.stop();
    }
  });
});
