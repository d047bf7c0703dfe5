/**
 * Resuming the latest slot: the pure rule, and the daemon as a subprocess stopped in the middle
 * of its morning run and started again.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { resumeDecision, type SlotRun } from "../../src/daemon/schedule.ts";
import { type RunningEmulator, startEmulator } from "../../src/emulator/index.ts";
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

const MIN = 60_000;
const slot = new Date("2026-03-02T05:00:00Z");
const at = (minutes: number) => new Date(slot.getTime() + minutes * MIN);
const run = (minutes: number, over: Partial<SlotRun> = {}): SlotRun => ({
  status: "partial",
  stopped: false,
  windowsIncomplete: true,
  finishedAt: at(minutes),
  ...over,
});
const decide = (runs: SlotRun[], nowMinutes: number) =>
  resumeDecision({
    slot,
    runs,
    now: at(nowMinutes),
    backoffMs: 15 * MIN,
    maxBackoffMs: 240 * MIN,
    maxAttempts: 3,
  });

describe("resumeDecision", () => {
  it("runs a slot not yet run, and not again once a run ended ok", () => {
    expect(decide([], 1)).toEqual({ due: true, reason: "scheduled" });
    expect(decide([run(10, { status: "ok", windowsIncomplete: false })], 11).reason).toBe("complete");
    expect(decide([run(10), run(40, { status: "ok", windowsIncomplete: false })], 300).due).toBe(false);
  });

  it("resumes a stopped run at once", () => {
    expect(decide([run(10, { stopped: true })], 10.1)).toEqual({ due: true, reason: "resume-stopped" });
  });

  it("retries a partial run after 15 minutes, then 30, then gives up while windows are missing", () => {
    expect(decide([run(10)], 20)).toMatchObject({ due: false, reason: "backoff", nextAt: at(25) });
    expect(decide([run(10)], 25)).toEqual({ due: true, reason: "retry" });
    expect(decide([run(10), run(30)], 50)).toMatchObject({ reason: "backoff", nextAt: at(60) });
    expect(decide([run(10), run(30)], 60).due).toBe(true);
    expect(decide([run(10), run(30), run(70)], 600)).toEqual({
      due: false,
      reason: "exhausted",
      attempts: 3,
    });
  });

  it("resumes a run whose process died after 1, 2, 4 minutes, three times, then waits for the next slot", () => {
    const killed = (m: number) => run(m, { killed: true });
    // Before issue 26 a killed run counted as stopped: resumed at once on every restart, forever.
    expect(decide([killed(10)], 10.5)).toMatchObject({ due: false, reason: "backoff", nextAt: at(11) });
    expect(decide([killed(10)], 11)).toEqual({ due: true, reason: "resume-stopped" });
    expect(decide([killed(10), killed(20)], 21)).toMatchObject({ reason: "backoff", nextAt: at(22) });
    expect(decide([killed(10), killed(20)], 22).due).toBe(true);
    expect(decide([killed(10), killed(20), killed(30)], 33)).toMatchObject({ nextAt: at(34) });
    expect(decide([killed(10), killed(20), killed(30)], 34).due).toBe(true);
    const four = [killed(10), killed(20), killed(30), killed(40)];
    expect(decide(four, 40.1)).toEqual({ due: false, reason: "killed", kills: 4 });
    expect(decide(four, 100_000)).toEqual({ due: false, reason: "killed", kills: 4 });
    // Twenty killed runs: still held, not due now.
    const twenty = Array.from({ length: 20 }, (_, i) => killed(i));
    expect(decide(twenty, 1000).due).toBe(false);
  });

  it("retries a run that lost its database at the next check, without the backoff", () => {
    const lost = run(10, { status: "failed", databaseLost: true });
    expect(decide([lost], 10.1)).toEqual({ due: true, reason: "retry" });
    expect(decide([run(5), lost], 10.1)).toEqual({ due: true, reason: "retry" });
    // The attempts stay bounded: a database that dies under every run does not loop forever.
    const lostThrice = [run(5), run(6), lost];
    expect(decide(lostThrice, 10.1)).toMatchObject({ due: false, reason: "exhausted" });
  });

  it("stops do not count as attempts", () => {
    expect(decide([run(10), run(12, { stopped: true }), run(30)], 60).due).toBe(true);
  });

  it("keeps retrying when only files failed, with the backoff capped", () => {
    const filesOnly = (m: number) => run(m, { windowsIncomplete: false });
    const runs = [filesOnly(10), filesOnly(30), filesOnly(70), filesOnly(200), filesOnly(500)];
    expect(decide(runs, 500 + 239)).toMatchObject({ reason: "backoff", nextAt: at(740) });
    expect(decide(runs, 740)).toEqual({ due: true, reason: "retry" });
  });
});

describe("a daemon stopped mid-run and started again", () => {
  let emulator: RunningEmulator;
  let t: TestDatabase;
  const running: DaemonProcess[] = [];
  beforeAll(async () => {
    emulator = await startEmulator({ seed: 64, businesses: 3000, rateLimit: 200 });
    await seedLists(emulator, [
      { name: "resume-a", daysAgo: 90, size: 15 },
      { name: "resume-b", daysAgo: 90, size: 15 },
    ]);
    t = await createTestDatabase();
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((d) => d.stop()));
  });
  afterAll(async () => {
    await t?.drop();
    await emulator?.close();
  });

  it("completes the morning's windows and files without waiting for the next schedule, once", async () => {
    const { schedule } = scheduleTwoHoursAgo();
    const env = daemonEnv(emulator, t, {
      REGWATCH_SCHEDULE: schedule,
      REGWATCH_TZ: "UTC",
      REGWATCH_RATE_LIMIT: "15",
      REGWATCH_CONCURRENCY: "4",
    });
    const first = startDaemon(env, ["--stop-timeout", "30"]);
    running.push(first);
    await first.waitFor((l) => /catching up/.test(l.msg));
    // Stop once the first windows have committed: the run is then certainly mid-way.
    await waitUntil(() => coverageRows(t), { what: "a committed window", process: first.child });
    expect((await first.stop()).code).toBe(0);
    const [stopped] = await t.db.sql`select status, stats from regwatch.runs where kind = 'sync'`;
    expect(stopped).toMatchObject({ status: "partial" });
    expect(stopped!.stats.stopped).toBe(true);

    const second = startDaemon({ ...env, REGWATCH_RATE_LIMIT: "100" }, ["--check-every", "1"]);
    running.push(second);
    await second.waitFor((l) => l.msg === "resuming a run that was stopped");
    const done = await second.waitFor((l) => l.msg === "job finished");
    expect(done.status).toBe("ok");
    // Checks after the day is complete find nothing to do.
    await second.waitFor(
      (l) =>
        l.msg === "no run due" &&
        l.reason === "complete" &&
        second.lines.indexOf(l) > second.lines.indexOf(done),
    );
    const syncs = await t.db.sql`select status from regwatch.runs where kind = 'sync' order by id`;
    expect(syncs.map((r) => r.status)).toEqual(["partial", "ok"]);
    const gaps = await t.db.sql`select gap_days from regwatch.v_coverage`;
    expect(gaps.length).toBe(2);
    expect(gaps.every((g) => g.gap_days === 0)).toBe(true);
    const [files] = await t.db.sql<{ n: number }[]>`
      select count(*)::int as n from regwatch.change_files where status = 'pending'`;
    expect(files?.n).toBe(0);
  });
});
