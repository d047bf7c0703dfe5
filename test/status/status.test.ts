import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, lastCompleteDay, localDateTime } from "../../src/dates.ts";
import { calendar, coverageGaps } from "../../src/status/status-report.ts";
import { mergeIntervals } from "../../src/sync/plan.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

describe("coverage arithmetic", () => {
  it("merges overlapping and touching ranges and finds the holes between them", () => {
    const merged = mergeIntervals([
      { start: "2026-03-08", end: "2026-03-14" },
      { start: "2026-03-01", end: "2026-03-07" },
      { start: "2026-03-05", end: "2026-03-09" },
      { start: "2026-03-20", end: "2026-03-26" },
    ]);
    expect(merged).toEqual([
      { start: "2026-03-01", end: "2026-03-14" },
      { start: "2026-03-20", end: "2026-03-26" },
    ]);
    expect(coverageGaps(merged)).toEqual([{ start: "2026-03-15", end: "2026-03-19" }]);
  });

  it("draws weeks from Monday: covered, missing, not yet due, before the list", () => {
    const merged = [{ start: "2026-11-10", end: "2026-11-15" }];
    // 22 November 2026 is a Sunday; two weeks from Monday 9 November.
    const c = calendar(merged, {
      createdAt: "2026-11-10",
      lastComplete: "2026-11-19",
      today: "2026-11-22",
      weeks: 2,
    });
    expect(c).toEqual({ from: "2026-11-09", days: " ###### ....---" });
  });
});

describe("regwatch status --json", () => {
  let t: TestDatabase;
  const tz = "Europe/Budapest";
  const complete = lastCompleteDay(new Date(), tz);
  beforeAll(async () => {
    t = await createTestDatabase();
    const created = addDays(complete, -40);
    await t.db.sql`
      insert into regwatch.watch_lists (list_key, list_name, created_at, watch_count)
      values ('wl_holey', 'holey', ${created}, 3), ('wl_whole', 'whole', ${created}, 1)`;
    // holey: covered, then 5 uncovered days, then covered again up to the last complete day.
    const rows = [
      { list_key: "wl_holey", start_date: created, end_date: addDays(created, 6) },
      { list_key: "wl_holey", start_date: addDays(created, 7), end_date: addDays(created, 13) },
      { list_key: "wl_holey", start_date: addDays(created, 19), end_date: addDays(created, 25) },
      { list_key: "wl_holey", start_date: addDays(created, 24), end_date: complete },
      { list_key: "wl_whole", start_date: created, end_date: addDays(complete, -3) },
    ];
    await t.db.sql`insert into regwatch.coverage ${t.db.sql(rows, "list_key", "start_date", "end_date")}`;
    await t.db.sql`
      insert into regwatch.item_outcomes (list_name, tax_id, op, code, message)
      values ('holey', '12345678', 'add', 422, 'bad'), ('holey', '23456789', 'add', null, 'ok')`;
    await t.db.sql`
      insert into regwatch.api_usage (day, api, endpoint, requests, errors)
      values (${localDateTime(new Date(), tz).date}, 'watch', 'GET /v2/lists', 7, 1)`;
    await t.db.sql`
      insert into regwatch.change_files (path, status, last_error) values ('http://x/f1.json', 'failed', 'HTTP 500')`;
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("reports the hole of a list as a gap, and the rest of the state", async () => {
    const result = await runCli(["status", "--json"], { DATABASE_URL: t.url, REGWATCH_TZ: tz });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const status = JSON.parse(result.stdout);
    const created = addDays(complete, -40);
    const holey = status.lists.find((l: { listKey: string }) => l.listKey === "wl_holey");
    expect(holey).toMatchObject({
      firstCovered: created,
      lastCovered: complete,
      gapDays: 5,
      gaps: [{ start: addDays(created, 14), end: addDays(created, 18), days: 5 }],
      coveredDays: 36,
      behindDays: 0,
    });
    expect(holey.calendar.days.replaceAll(" ", "")).toMatch(/#\.{5}#/);
    const whole = status.lists.find((l: { listKey: string }) => l.listKey === "wl_whole");
    expect(whole).toMatchObject({ gapDays: 0, gaps: [], behindDays: 3 });
    expect(status.outcomes).toEqual([
      { op: "add", code: null, count: 1 },
      { op: "add", code: 422, count: 1 },
    ]);
    expect(status.usage.today.byApi).toEqual([{ api: "watch", requests: 7, errors: 1 }]);
    expect(status.files.counts).toMatchObject({ failed: 1, pending: 0 });
    expect(status.files.open[0]).toMatchObject({ status: "failed", lastError: "HTTP 500" });
  });

  it("prints the same as text", async () => {
    const result = await runCli(["status"], { DATABASE_URL: t.url, REGWATCH_TZ: tz });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/holey/);
    expect(result.stdout).toMatch(/5 gap days/);
    expect(result.stdout).toMatch(/refused 422: 1/);
  });
});
