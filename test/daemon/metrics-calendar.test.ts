/**
 * The coverage lag counts the registry's days (REGWATCH_REGISTRY_TZ), as the sync does, not the
 * schedule's zone (REGWATCH_TZ): at 06:30 UTC on 6 December the last complete day is the 5th in
 * Budapest (07:30) but the 4th in Los Angeles (22:30 the day before), so a list covered to the 4th
 * is a day behind. Real Postgres; the metrics read as a scrape reads them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DaemonMetrics } from "../../src/daemon/metrics.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase();
  const sql = t.db.sql;
  await sql`insert into ${sql.t.watch_lists} (list_key, list_name) values ('wl_cal', 'calendar')`;
  await sql`
    insert into ${sql.t.coverage} (list_key, start_date, end_date)
    values ('wl_cal', '2026-11-28', '2026-12-04')`;
});
afterAll(async () => t?.drop());

describe("the coverage lag", () => {
  it("counts the registry's last complete day, whatever the schedule's zone", async () => {
    const metrics = new DaemonMetrics({
      probe: async () => t.db.sql,
      registryTz: "Europe/Budapest",
      limiters: () => new Map(),
      now: () => new Date("2026-12-06T06:30:00Z"),
    });
    const { body } = await metrics.render();
    expect(body).toMatch(/^regwatch_coverage_lag_seconds\{list_key="wl_cal",list_name="calendar"\} 86400$/m);
  });
});
