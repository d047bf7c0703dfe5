/**
 * The daemon as a subprocess against the in-process emulator (real clock): catch-up at start,
 * one runner between two daemons, a clean stop in the middle of a sync, health and metrics.
 */
import postgres from "postgres";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../src/emulator/index.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { waitUntil } from "../helpers/wait.ts";
import {
  coverageRows,
  type DaemonProcess,
  daemonEnv,
  scheduleTwoHoursAgo,
  seedLists,
  startDaemon,
} from "./harness.ts";

const running: DaemonProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((d) => d.stop()));
});
function daemon(env: Record<string, string>, args: string[] = []): DaemonProcess {
  const d = startDaemon(env, args);
  running.push(d);
  return d;
}

async function insertRun(t: TestDatabase, startedAt: Date, trigger = "schedule", status = "ok") {
  await t.db.sql`
    insert into regwatch.runs (kind, trigger, status, started_at, finished_at)
    values ('sync', ${trigger}, ${status}, ${startedAt}, ${new Date(startedAt.getTime() + 60_000)})`;
}

const finished = (l: { msg: string }) => l.msg === "job finished";

describe("catch-up at start", () => {
  let emulator: RunningEmulator;
  let t: TestDatabase;
  beforeAll(async () => {
    emulator = await startEmulator({ seed: 61, businesses: 2000, rateLimit: 200 });
    await seedLists(emulator, [{ name: "catchup", daysAgo: 10, size: 6 }]);
  });
  afterAll(async () => {
    await emulator?.close();
  });
  afterEach(async () => {
    await t?.drop();
  });

  it("runs at once (trigger catchup) when the last scheduled run is older than the last slot", async () => {
    t = await createTestDatabase();
    const { schedule, slot } = scheduleTwoHoursAgo();
    await insertRun(t, new Date(slot.getTime() - 24 * 3600_000 + 60_000)); // yesterday's run only
    const d = daemon(daemonEnv(emulator, t, { REGWATCH_SCHEDULE: schedule, REGWATCH_TZ: "UTC" }));
    const done = await d.waitFor(finished);
    expect(done).toMatchObject({ trigger: "catchup", status: "ok" });
    const runs = await t.db.sql`select kind, trigger, status from regwatch.runs where id > 1 order by id`;
    expect(runs.map((r) => `${r.kind}/${r.trigger}/${r.status}`)).toEqual([
      "reconcile/catchup/ok",
      "sync/catchup/ok",
    ]);
    const [cov] = await t.db.sql<{ n: number }[]>`select count(*)::int as n from regwatch.coverage`;
    expect(cov!.n).toBeGreaterThan(0);
  });

  it("does nothing when a scheduled run already started after the last slot", async () => {
    t = await createTestDatabase();
    const { schedule, slot } = scheduleTwoHoursAgo();
    await insertRun(t, new Date(slot.getTime() + 60_000));
    emulator.resetLog();
    const d = daemon(daemonEnv(emulator, t, { REGWATCH_SCHEDULE: schedule, REGWATCH_TZ: "UTC" }));
    await d.waitFor((l) => l.msg === "no run due");
    const [row] = await t.db.sql<{ n: number }[]>`select count(*)::int as n from regwatch.runs`;
    expect(row!.n).toBe(1);
    expect(emulator.requests()).toHaveLength(0);
    expect(await d.stop()).toMatchObject({ code: 0 });
  });

  it("marks a run left 'running' by a crashed process failed when it starts", async () => {
    t = await createTestDatabase();
    const { schedule, slot } = scheduleTwoHoursAgo();
    await insertRun(t, new Date(slot.getTime() + 60_000));
    await t.db
      .sql`insert into regwatch.runs (kind, trigger, status, pid) values ('backfill', 'cli', 'running', 999999)`;
    const d = daemon(daemonEnv(emulator, t, { REGWATCH_SCHEDULE: schedule, REGWATCH_TZ: "UTC" }));
    await d.waitFor((l) => l.msg === "no run due");
    const rows = await t.db.sql`select status, error from regwatch.runs where kind = 'backfill'`;
    expect(rows[0]).toMatchObject({ status: "failed" });
    expect(String(rows[0]!.error)).toMatch(/abandoned/);
  });
});

describe("two daemons started together", () => {
  let emulator: RunningEmulator;
  let t: TestDatabase;
  beforeAll(async () => {
    emulator = await startEmulator({ seed: 62, businesses: 2000, rateLimit: 200 });
    await seedLists(emulator, [
      { name: "one", daysAgo: 20, size: 8 },
      { name: "two", daysAgo: 15, size: 8 },
    ]);
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await t?.drop();
    await emulator?.close();
  });

  it("run once between them, and the registry sees each request once", async () => {
    emulator.resetLog();
    const env = daemonEnv(emulator, t);
    const a = daemon(env);
    const b = daemon(env);
    const first = await Promise.race([a.waitFor(finished), b.waitFor(finished)]);
    expect(first).toMatchObject({ status: "ok" });
    const other = a.lines.some(finished) ? b : a;
    // The other one either found the lock held or, having got it later, nothing left to do.
    await other.waitFor((l) => l.msg === "run skipped: lock held" || l.msg === "no run due");
    expect(other.lines.some((l) => /catching up/.test(l.msg))).toBe(false);

    const runs = await t.db.sql`select kind, trigger from regwatch.runs order by id`;
    expect(runs.map((r) => `${r.kind}/${r.trigger}`)).toEqual(["reconcile/catchup", "sync/catchup"]);
    const seen = new Map<string, number>();
    for (const r of emulator.requests()) {
      const key = `${r.method} ${r.path}?${new URLSearchParams(r.query).toString()}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
    // One job reads the lists twice (reconcile, then sync); everything else is asked once.
    const repeated = [...seen].filter(([key, n]) => n > (key.startsWith("GET /v2/lists?") ? 2 : 1));
    expect(repeated).toEqual([]);
    expect(seen.size).toBeGreaterThan(10);
  });
});

describe("a clean stop in the middle of a sync", () => {
  let emulator: RunningEmulator;
  let t: TestDatabase;
  beforeAll(async () => {
    emulator = await startEmulator({ seed: 63, businesses: 3000, rateLimit: 200 });
    await seedLists(emulator, [
      { name: "long-a", daysAgo: 90, size: 15 },
      { name: "long-b", daysAgo: 90, size: 15 },
    ]);
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await t?.drop();
    await emulator?.close();
  });

  it("exits 0 within the bound with whole windows only, and the next run finishes the work", async () => {
    const env = daemonEnv(emulator, t, { REGWATCH_RATE_LIMIT: "15", REGWATCH_CONCURRENCY: "4" });
    const d = daemon(env, ["--stop-timeout", "20"]);
    await d.waitFor((l) => /catching up/.test(l.msg));
    // Stop once the first windows have committed: the run is then certainly mid-way.
    await waitUntil(() => coverageRows(t), { what: "a committed window", process: d.child });
    // Exit 0 says the work in flight finished within --stop-timeout (1 when it outlived it).
    const { code } = await d.stop();
    expect(code).toBe(0);

    const [sync] = await t.db.sql`select status, stats from regwatch.runs where kind = 'sync'`;
    expect(sync).toMatchObject({ status: "partial" });
    expect(sync!.stats.stopped).toBe(true);
    // Each coverage row came with all of the changes the server reported for it.
    const short = await t.db.sql`
      select c.list_key, c.start_date, c.change_count,
             (select count(*)::int from regwatch.change_sources s join regwatch.changes ch on ch.id = s.change_id
              where s.list_key = c.list_key and ch.change_date between c.start_date and c.end_date) as stored
      from regwatch.coverage c`;
    expect(short.length).toBeGreaterThan(0);
    expect(short.filter((r) => r.stored < r.change_count)).toEqual([]);

    // What was not started stays uncovered, and the next sync plans it from coverage.
    const rest = await runCli(["sync"], { ...env, REGWATCH_RATE_LIMIT: "100" }, 120_000);
    expect(rest.code).toBe(0);
    const gaps = await t.db
      .sql`select gap_days, first_covered_day, last_covered_day from regwatch.v_coverage`;
    expect(gaps.every((g) => g.gap_days === 0)).toBe(true);
  });
});

describe("health and metrics", () => {
  let emulator: RunningEmulator;
  let t: TestDatabase;
  beforeAll(async () => {
    emulator = await startEmulator({ seed: 64, businesses: 2000, rateLimit: 200 });
    await seedLists(emulator, [{ name: "metrics", daysAgo: 12, size: 6 }]);
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await t?.drop().catch(() => {});
    await emulator?.close();
  });

  it("serves the metrics, and /readyz says 503 once the database is gone", async () => {
    const d = daemon(daemonEnv(emulator, t));
    const port = await d.port();
    const base = `http://127.0.0.1:${port}`;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    await d.waitFor(finished);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);

    const text = await (await fetch(`${base}/metrics`)).text();
    expect(text).toMatch(/^regwatch_runs\{kind="sync",status="ok"\} 1$/m);
    expect(text).toMatch(/^regwatch_runs\{kind="reconcile",status="ok"\} 1$/m);
    expect(text).toMatch(/^regwatch_last_success_timestamp_seconds\{kind="sync"\} \d+/m);
    expect(text).toMatch(
      /^regwatch_requests_total\{api="watch",endpoint="GET \/v2\/lists\/:key\/changes",status="200"\} [1-9]/m,
    );
    expect(text).toMatch(/^regwatch_requests_total\{api="files",.*status="200"\} [1-9]/m);
    expect(text).toMatch(/^regwatch_rate_limiter_waiting\{origin="http:\/\/127\.0\.0\.1:\d+"\} 0$/m);
    expect(text).toMatch(
      /^regwatch_rate_limiter_waited_seconds_total\{origin="http:\/\/127\.0\.0\.1:\d+"\} [\d.e-]+$/m,
    );
    expect(text).toMatch(/^regwatch_changes_written_total [1-9]/m);
    expect(text).toMatch(/^regwatch_change_files\{status="fetched"\} [1-9]/m);
    expect(text).toMatch(/^regwatch_change_files\{status="pending"\} 0$/m);
    expect(text).toMatch(/^regwatch_coverage_lag_seconds\{list_key="wl_[0-9a-f]+",list_name="metrics"\} 0$/m);
    expect(text).toMatch(/^regwatch_database_up 1$/m);
    // Whether alert delivery works: no pass has failed, no message waits.
    expect(text).toMatch(/^regwatch_alert_delivery_pass_failures_total 0$/m);
    expect(text).toMatch(/^regwatch_alert_oldest_pending_seconds 0$/m);
    expect(text).toMatch(/^regwatch_build_info\{version="\d+\.\d+\.\d+[^"]*"\} 1$/m);
    expect(text).toMatch(/^regwatch_run_duration_seconds_count\{kind="sync",status="ok"\} 1$/m);
    expect(text).toMatch(
      /^regwatch_run_duration_seconds_bucket\{le="\+Inf",kind="reconcile",status="ok"\} 1$/m,
    );
    // Default process metrics under their standard names; everything else is regwatch's own.
    expect(text).toMatch(/^process_cpu_seconds_total \d/m);
    expect(text).not.toMatch(/^(?!#)(?!regwatch_|process_|nodejs_)\w+/m);

    const admin = postgres(t.url.replace(/\/[^/]+$/, "/postgres"), { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe(`drop database "${t.name}" with (force)`);
    } finally {
      await admin.end();
    }
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.text()).toMatch(/database unreachable/);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    // The metrics cache database reads for a short while: they say so once it has passed.
    await waitUntil(
      async () => /^regwatch_database_up 0$/m.test(await (await fetch(`${base}/metrics`)).text()),
      {
        what: "regwatch_database_up 0",
        process: d.child,
        everyMs: 200,
      },
    );
  });
});

describe("a stop while a request hangs", () => {
  let emulator: RunningEmulator;
  let t: TestDatabase;
  beforeAll(async () => {
    // Every changes request takes 8 s: a window is always in flight when the stop comes.
    const faults = [
      { endpoint: "GET /v2/lists/:key/changes", kind: "delay" as const, delayMs: 8000, probability: 1 },
    ];
    emulator = await startEmulator({ seed: 64, businesses: 1000, rateLimit: 200, faults });
    await seedLists(emulator, [{ name: "slow", daysAgo: 20, size: 4 }]);
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await t?.drop();
    await emulator?.close();
  });

  // A request in flight used to hold the stop past its bound (exit 1, run left running); the stop
  // now ends the wait for it, so the run is recorded partial within the bound.
  it("exits 0 within --stop-timeout, the run recorded partial, and the next start finishes the work", async () => {
    const env = daemonEnv(emulator, t);
    const changesAsked = emulator.nextArrival((r) => r.endpoint === "GET /v2/lists/:key/changes");
    const d = daemon(env, ["--stop-timeout", "1"]);
    await d.waitFor((l) => /catching up/.test(l.msg));
    // A changes request has reached the emulator, which holds it for 8 s.
    await changesAsked;
    const { code } = await d.stop();
    expect(code).toBe(0);
    const [left] = await t.db.sql`select status from regwatch.runs where kind = 'sync'`;
    expect(left?.status).toBe("partial");

    emulator.setFaults([]);
    const next = daemon(env);
    await next.waitFor(finished);
    const runs = await t.db
      .sql`select kind, status, error from regwatch.runs where kind = 'sync' order by id`;
    expect(runs[0]).toMatchObject({ status: "partial" });
    expect(runs.at(-1)).toMatchObject({ status: "ok" });
  });
});
