/**
 * Issue 26: a run left `running` by a process that died (OOM, a crash, SIGKILL) is resumed at most
 * three times per scheduled slot, after growing waits; then the slot waits for the next scheduled
 * run, and `status` says why. Before, such a run counted as stopped: resumed at once on every
 * restart, with no limit (20 killed runs: still due now).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeResumeState, readResumeState } from "../../src/daemon/resume-state.ts";
import { acquireRunLock } from "../../src/run/lock.ts";
import { scheduleTwoHoursAgo, startDaemon } from "../daemon/harness.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { type HostileRegistry, hostileEnv, startHostileRegistry } from "../helpers/hostile-registry.ts";

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(() => test.drop());

// The latest slot is today's midnight (UTC): the runs inserted now belong to it.
const SCHEDULE = { schedule: "0 0 * * *", tz: "UTC" };

/** A scheduled sync whose process dies, then a restart that takes the lock and finds it. */
async function killedRun(): Promise<void> {
  const { sql } = test.db;
  await sql`
    insert into regwatch.runs (kind, trigger, status, started_at, pid, host)
    values ('sync', 'schedule', 'running', now(), 999999, 'gone')`;
  const lock = await acquireRunLock(sql);
  await lock.release();
}

describe("resuming a killed run", () => {
  it("waits 1, 2, 4 minutes between resumes, then holds the slot and says why", async () => {
    const { sql } = test.db;
    await sql`truncate regwatch.runs`;
    const waits: number[] = [];
    for (let kill = 1; kill <= 3; kill++) {
      await killedRun();
      const state = await readResumeState(sql, SCHEDULE, new Date());
      expect(state).toMatchObject({ state: "backoff", kills: kill, exhausted: false });
      const [row] = await sql<{ finished: Date }[]>`select max(finished_at) as finished from regwatch.runs`;
      waits.push(Math.round((Date.parse(state.nextAttemptAt!) - row!.finished.getTime()) / 60_000));
      // Once the wait has passed, the slot is due again (the daemon resumes it).
      const later = await readResumeState(sql, SCHEDULE, new Date(Date.parse(state.nextAttemptAt!) + 1));
      expect(later.state).toBe("due");
    }
    expect(waits).toEqual([1, 2, 4]);

    await killedRun();
    const held = await readResumeState(sql, SCHEDULE, new Date());
    expect(held).toMatchObject({ state: "killed", kills: 4, exhausted: true });
    expect(describeResumeState(held)).toMatch(
      /process died 4 times .* resumed 3 times; waiting for the next scheduled run at/,
    );
  });
});

describe("the daemon holding a slot whose run was killed too often", () => {
  let registry: HostileRegistry;
  beforeAll(async () => {
    registry = await startHostileRegistry({ lists: [] });
  });
  afterAll(() => registry?.close());

  it("does not start it again, and /readyz answers 503 saying why", async () => {
    const { sql } = test.db;
    await sql`truncate regwatch.runs`;
    for (let i = 0; i < 3; i++)
      await sql`
        insert into regwatch.runs (kind, trigger, status, started_at, finished_at, error)
        values ('sync', 'catchup', 'failed', now(), now(), 'abandoned: the process ended without finishing the run')`;
    // The fourth was running when its process died; the daemon finds it when it takes the lock.
    await sql`
      insert into regwatch.runs (kind, trigger, status, started_at, pid, host)
      values ('sync', 'catchup', 'running', now(), 999999, 'gone')`;
    const daemon = startDaemon(
      {
        ...hostileEnv(registry),
        DATABASE_URL: test.url,
        REGWATCH_SCHEDULE: scheduleTwoHoursAgo().schedule,
        REGWATCH_TZ: "UTC",
        REGWATCH_LOG_LEVEL: "debug",
      },
      ["--check-every", "1"],
    );
    try {
      const port = await daemon.port();
      const held = await daemon.waitFor((l) => l.msg === "no run due");
      expect(held.reason).toBe("killed");
      const response = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(response.status).toBe(503);
      expect(await response.text()).toMatch(/process died 4 times .*waiting for the next scheduled run/);
      expect(daemon.lines.some((l) => RUN_START.test(l.msg))).toBe(false);
      expect(registry.asked).toEqual([]);
    } finally {
      await daemon.stop();
    }
  }, 60_000);
});

const RUN_START = /^(catching up a missed run|retrying an incomplete run|scheduled run starting|resuming)/;
