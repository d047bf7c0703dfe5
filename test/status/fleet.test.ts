/**
 * `regwatch status --fleet` against a real database: accounts with runs, coverage and files in
 * their own schemas, jobs queued, running and failed in the queue, one live and one silent worker.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, lastCompleteDay } from "../../src/dates.ts";
import { openDatabase, type Sql } from "../../src/db/connect.ts";
import { enqueue } from "../../src/fleet/queue.ts";
import { accountSummaries } from "../../src/fleet/sql/account-summaries.ts";
import { listWorkers, writeHeartbeat } from "../../src/fleet/sql/workers.ts";
import { silentLogger } from "../../src/logger.ts";
import {
  accountSql,
  type FleetFiles,
  prepareFleet,
  writeAccountsFile,
} from "../fleet-daemon/fleet-fixture.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

let t: TestDatabase;
let files: FleetFiles;
let alpha: Sql;
const complete = lastCompleteDay(new Date(), "Europe/Budapest");

function env(extra: Record<string, string> = {}) {
  return {
    DATABASE_URL: t.url,
    REGWATCH_ACCOUNTS_FILE: files.accountsFile,
    ALPHA_KEY: "alpha-key-0001",
    BETA_KEY: "beta-key-0002",
    GAMMA_KEY: "gamma-key-0003",
    ...extra,
  };
}

beforeAll(async () => {
  t = await createTestDatabase();
  files = writeAccountsFile([
    { name: "alpha", watch_url: "http://127.0.0.1:9/v2", api_key_env: "ALPHA_KEY" },
    { name: "beta", watch_url: "http://127.0.0.1:9/v2", api_key_env: "BETA_KEY" },
    // Never migrated: the fleet view says so instead of failing.
    { name: "gamma", watch_url: "http://127.0.0.1:9/v2", api_key_env: "GAMMA_KEY" },
  ]);
  await prepareFleet(t.url, ["alpha", "beta"]);
  alpha = accountSql(t.url, "alpha");
  const finished = new Date(Date.now() - 3600_000);
  await alpha`
    insert into ${alpha.t.runs} (kind, trigger, status, started_at, finished_at)
    values ('sync', 'schedule', 'ok', ${new Date(finished.getTime() - 60_000)}, ${finished})`;
  await alpha`
    insert into ${alpha.t.watch_lists} (list_key, list_name, created_at, watch_count)
    values ('k1', 'one', ${addDays(complete, -30)}, 1), ('k2', 'two', ${addDays(complete, -30)}, 1)`;
  await alpha`
    insert into ${alpha.t.coverage} (list_key, start_date, end_date)
    values ('k1', ${addDays(complete, -30)}, ${complete}), ('k2', ${addDays(complete, -30)}, ${addDays(complete, -3)})`;
  await alpha`
    insert into ${alpha.t.change_files} (path, status) values ('http://x/a.json', 'pending'), ('http://x/b.json', 'failed'),
      ('http://x/c.json', 'fetched')`;

  const queue = { databaseUrl: t.url, log: silentLogger };
  const added = await enqueue(
    queue,
    [
      { kind: "sync", account: "alpha", day: complete },
      { kind: "sync", account: "beta", day: complete },
      { kind: "reconcile", account: "beta", day: complete },
    ],
    { maxAttempts: 3 },
  );
  const [, running, failed] = added.map((a) => a.id);
  await t.db.sql`
    update graphile_worker._private_jobs set locked_at = now(), locked_by = 'w-live' where id = ${running!}`;
  await t.db.sql`
    update graphile_worker._private_jobs set attempts = max_attempts, last_error = 'refused key'
    where id = ${failed!}`;

  const beat = {
    lockIds: [],
    host: "host-a",
    pid: 101,
    concurrency: 4,
    jobsRunning: 1,
    jobsDone: 7,
    jobsFailed: 2,
  };
  await writeHeartbeat(t.db.sql, { ...beat, id: "w-live" });
  await writeHeartbeat(t.db.sql, { ...beat, id: "w-silent", host: "host-b", pid: 202, jobsRunning: 0 });
  await t.db
    .sql`update ${t.db.sql.t.worker_heartbeats} set heartbeat_at = now() - interval '1 hour' where id = 'w-silent'`;
}, 120_000);

afterAll(async () => {
  await alpha?.end();
  await t?.drop();
  files?.remove();
});

describe("status --fleet", () => {
  it("prints one JSON object per account and per worker", async () => {
    const r = await runCli(["status", "--fleet", "--json"], env());
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s.accounts.map((a: { account: string }) => a.account)).toEqual(["alpha", "beta", "gamma"]);
    const [a, b, g] = s.accounts;
    expect(a).toMatchObject({
      schema: "regwatch_alpha",
      migrated: true,
      lastRun: { kind: "sync", trigger: "schedule", status: "ok" },
      coverageEnd: addDays(complete, -3),
      daysBehind: 3,
      lists: 2,
      openFiles: 2,
      jobs: { queued: 1, running: 0, failed: 0 },
      error: null,
    });
    expect(b).toMatchObject({
      migrated: true,
      lastRun: null,
      coverageEnd: null,
      jobs: { queued: 0, running: 1, failed: 1 },
    });
    expect(g).toMatchObject({ migrated: false, jobs: { queued: 0, running: 0, failed: 0 } });
    expect(s.workers).toHaveLength(2);
    const byId = Object.fromEntries(s.workers.map((w: { id: string }) => [w.id, w]));
    expect(byId["w-live"]).toMatchObject({
      host: "host-a",
      pid: 101,
      alive: true,
      running: 1,
      done: 7,
      failed: 2,
    });
    expect(byId["w-silent"]).toMatchObject({ host: "host-b", pid: 202, alive: false });
  });

  it("prints a table of accounts and one of workers", async () => {
    const r = await runCli(["status", "--fleet"], env());
    expect(r.code).toBe(0);
    const lines = r.stdout.split("\n");
    // Every time in REGWATCH_TZ (Europe/Budapest by default), named (issue 49, point 12).
    expect(lines[0]).toMatch(
      /^regwatch fleet at \d{4}-\d\d-\d\d \d\d:\d\d CES?T: 3 accounts, 1 of 2 workers alive$/,
    );
    const row = (name: string) => lines.find((l) => l.trim().startsWith(`${name} `)) ?? "";
    expect(row("alpha")).toMatch(/sync ok \d{4}-\d\d-\d\d \d\d:\d\d CES?T \(6\dm ago\)/);
    expect(r.stdout).not.toContain("UTC");
    expect(row("alpha")).toContain(`${addDays(complete, -3)} (3 days behind)`);
    expect(
      row("alpha")
        .split(/\s{2,}/)
        .slice(-4),
    ).toEqual(["2", "1", "0", "0"]);
    expect(row("beta")).toContain("none yet");
    expect(
      row("beta")
        .split(/\s{2,}/)
        .slice(-3),
    ).toEqual(["0", "1", "1"]);
    expect(row("gamma")).toContain("not migrated (run `regwatch migrate`)");
    expect(row("w-live")).toMatch(/host-a\s+101\s+yes\s+1\s+7\s+2/);
    expect(row("w-silent")).toMatch(/host-b\s+202\s+no\s/);
  });

  it("status --account NAME is that account's own status, its name in the header and the JSON", async () => {
    const text = await runCli(["status", "--account", "alpha"], env());
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^regwatch status of account alpha at /);
    expect(text.stdout).toContain("Change files: 1 fetched, 1 pending, 1 failed, 0 refused");
    const json = JSON.parse((await runCli(["status", "--account", "beta", "--json"], env())).stdout);
    expect(json).toMatchObject({ account: "beta", lists: [], runs: [] });
  });

  it("shows accounts with no jobs before the queue is installed", async () => {
    const fresh = await createTestDatabase();
    try {
      const r = await runCli(["status", "--fleet", "--json"], env({ DATABASE_URL: fresh.url }));
      expect(r.code).toBe(0);
      const s = JSON.parse(r.stdout);
      expect(s.accounts.map((a: { migrated: boolean; jobs: object }) => [a.migrated, a.jobs])).toEqual([
        [false, { queued: 0, running: 0, failed: 0 }],
        [false, { queued: 0, running: 0, failed: 0 }],
        [false, { queued: 0, running: 0, failed: 0 }],
      ]);
      expect(s.workers).toEqual([]);
    } finally {
      await fresh.drop();
    }
  });

  it("needs the accounts file (78) and refuses --account with it (64)", async () => {
    const without = await runCli(["status", "--fleet"], { DATABASE_URL: t.url });
    expect(without.code).toBe(78);
    expect(without.stderr).toContain("REGWATCH_ACCOUNTS_FILE");
    const both = await runCli(["status", "--fleet", "--account", "alpha"], env());
    expect(both.code).toBe(64);
    expect(both.stderr).toContain("--fleet");
  });

  it("reads accounts and workers on a connection that has not read the server's array types", async () => {
    // status --fleet opens its pool so (with a thousand accounts' tables the read of every array
    // type is 60,000 rows a connection): nothing it sends or reads may be an array.
    await t.db
      .sql`update ${t.db.sql.t.worker_heartbeats} set lock_ids = '{lock-a,lock-b}' where id = 'w-live'`;
    const db = await openDatabase({ databaseUrl: t.url, dataDir: "" }, { max: 2, fetchTypes: false });
    try {
      const summaries = await accountSummaries(db.sql, ["regwatch_alpha", "regwatch_beta", "regwatch_gamma"]);
      expect([...summaries.keys()].sort()).toEqual(["regwatch_alpha", "regwatch_beta"]);
      expect(summaries.get("regwatch_alpha")).toMatchObject({ summary: { lists: 2, openFiles: 2 } });
      const workers = await listWorkers(db.sql);
      expect(workers.find((w) => w.id === "w-live")?.lockIds).toEqual(["lock-a", "lock-b"]);
    } finally {
      await db.close();
    }
  });

  it("an account whose tables cannot be read is a line with its error; the others are still read", async () => {
    await t.db.sql`alter table regwatch_beta.change_files rename to change_files_away`;
    try {
      const r = await runCli(["status", "--fleet", "--json"], env());
      expect(r.code).toBe(0);
      const s = JSON.parse(r.stdout) as {
        accounts: { account: string; migrated: boolean; error: string | null; lastRun: unknown }[];
      };
      const by = new Map(s.accounts.map((a) => [a.account, a]));
      expect(by.get("beta")!.error).toContain("change_files");
      expect(by.get("alpha")).toMatchObject({
        migrated: true,
        error: null,
        lastRun: { kind: "sync", status: "ok" },
      });
      expect(by.get("gamma")).toMatchObject({ migrated: false, error: null });
    } finally {
      await t.db.sql`alter table regwatch_beta.change_files_away rename to change_files`;
    }
  });
});
