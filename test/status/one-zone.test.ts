/**
 * `regwatch status` states every time in one zone (issue 49, point 12): REGWATCH_TZ, the zone of
 * its header, its runs and its alert deliveries, now also for the daemon's schedule (which said
 * UTC), each time named; `--json` writes every instant with that zone's offset, the schedule's
 * too. The built CLI on a real database, in a zone far from UTC so a mix would show.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  const finished = new Date(Date.now() - 3600_000);
  await t.db.sql`
    insert into regwatch.runs (kind, trigger, status, started_at, finished_at)
    values ('sync', 'schedule', 'ok', ${new Date(finished.getTime() - 60_000)}, ${finished})`;
});
afterAll(async () => {
  await t?.drop();
});

const env = () => ({ DATABASE_URL: t.url, REGWATCH_TZ: "America/New_York", REGWATCH_SCHEDULE: "15 7 * * *" });

describe("regwatch status", () => {
  it("shows every time in REGWATCH_TZ, named, the schedule's included", async () => {
    const r = await runCli(["status"], env());
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain("UTC");
    const stamps = [...r.stdout.matchAll(/\d{4}-\d\d-\d\d \d\d:\d\d(?::\d\d)? (\S+)/g)].map((m) => m[1]);
    expect(stamps.length).toBeGreaterThanOrEqual(3);
    for (const zone of stamps) expect(zone).toMatch(/^(EST|EDT|GMT-[45]);?$/);
    expect(r.stdout).toMatch(
      /Daemon schedule: the run scheduled at \d{4}-\d\d-\d\d 07:15 (EST|EDT|GMT-[45]) /,
    );
  });

  it("writes every instant of --json with the zone's offset, the schedule's included", async () => {
    const r = await runCli(["status", "--json"], env());
    expect(r.code, r.stderr).toBe(0);
    const instants = [...r.stdout.matchAll(/"(\d{4}-\d\d-\d\dT[^"]+)"/g)].map((m) => m[1]!);
    expect(instants.length).toBeGreaterThanOrEqual(4);
    for (const instant of instants) expect(instant).toMatch(/-0[45]:00$/);
    const json = JSON.parse(r.stdout);
    expect(json.schedule.nextScheduledRun).toMatch(/T07:15:00\.000-0[45]:00$/);
  });
});
