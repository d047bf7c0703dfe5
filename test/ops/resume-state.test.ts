/**
 * Issue 14: when the daemon's attempts for a morning run out, it waits for the next scheduled
 * run and says so: in `status` and `status --json` (read from the runs table by any process)
 * and in the metrics (`regwatch_resume_exhausted`).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DaemonMetrics } from "../../src/daemon/metrics.ts";
import { describeResumeState, readResumeState } from "../../src/daemon/resume-state.ts";
import { MAX_ATTEMPTS_PER_SLOT } from "../../src/daemon/schedule.ts";
import type { Sql } from "../../src/db/connect.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(() => test.drop());

const SCHEDULE = { schedule: "0 5 * * *", tz: "UTC" };
const SLOT = new Date("2026-03-02T05:00:00Z");
const minutes = (m: number) => new Date(SLOT.getTime() + m * 60_000);

/** Scheduled syncs after the slot that left windows uncovered. */
async function failedAttempts(sql: Sql, count: number, start: Date): Promise<void> {
  await sql`truncate regwatch.runs`;
  for (let i = 0; i < count; i++) {
    const at = new Date(start.getTime() + i * 60_000);
    await sql`
      insert into regwatch.runs (kind, trigger, status, started_at, finished_at, stats)
      values ('sync', ${i === 0 ? "schedule" : "catchup"}, 'partial', ${at}, ${at},
              ${sql.json({ windowsPlanned: 3, windowsDone: 1, windowsFailed: 2, windowsSkipped: 0 })})`;
  }
}

describe("resume exhaustion", () => {
  it("is read from the runs table: backoff while attempts remain, then the wait for the next slot", async () => {
    const { sql } = test.db;
    await failedAttempts(sql, 2, minutes(1));
    const backoff = await readResumeState(sql, SCHEDULE, minutes(10));
    expect(backoff).toMatchObject({ state: "backoff", attempts: 2, exhausted: false });
    expect(describeResumeState(backoff)).toContain("tries again at");

    await failedAttempts(sql, MAX_ATTEMPTS_PER_SLOT, minutes(1));
    const out = await readResumeState(sql, SCHEDULE, minutes(600));
    expect(out).toMatchObject({
      slot: SLOT.toISOString(),
      state: "exhausted",
      attempts: MAX_ATTEMPTS_PER_SLOT,
      exhausted: true,
      nextScheduledRun: expect.stringMatching(/T05:00:00\.000Z$/),
    });
    expect(describeResumeState(out)).toMatch(
      /attempts ran out; the daemon waits for the next scheduled run at/,
    );
  });

  it("shows in `status` and `status --json`", async () => {
    const { sql } = test.db;
    // A schedule that fired two hours ago, and its attempts spent since.
    const slot = new Date(Date.now() - 2 * 3600_000);
    slot.setUTCSeconds(0, 0);
    await failedAttempts(sql, MAX_ATTEMPTS_PER_SLOT, new Date(slot.getTime() + 60_000));
    const env = {
      DATABASE_URL: test.url,
      REGWATCH_SCHEDULE: `${slot.getUTCMinutes()} ${slot.getUTCHours()} * * *`,
      REGWATCH_TZ: "UTC",
    };
    const json = await runCli(["status", "--json"], env);
    expect(json.stderr).toBe("");
    expect(JSON.parse(json.stdout).schedule).toMatchObject({ state: "exhausted", exhausted: true });
    const text = await runCli(["status"], env);
    expect(text.stdout).toMatch(
      /Daemon schedule: .*attempts ran out; the daemon waits for the next scheduled run/,
    );
  }, 120_000);

  it("sets regwatch_resume_exhausted", async () => {
    const metrics = new DaemonMetrics({
      probe: async () => undefined,
      registryTz: "UTC",
      limiters: () => new Map(),
    });
    metrics.setResume({ reason: "exhausted" });
    expect((await metrics.render()).body).toMatch(/^regwatch_resume_exhausted 1$/m);
    metrics.setResume({ reason: "complete" });
    expect((await metrics.render()).body).toMatch(/^regwatch_resume_exhausted 0$/m);
  });
});
