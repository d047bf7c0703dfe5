/**
 * A changes answer over REGWATCH_MAX_RESPONSE_BYTES is asked again in halves, down to single days,
 * so memory stays bounded by the cap and the days are still read; a single day that is too large
 * alone fails, named, and the rest of the run goes on.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { addDays, daysBetween } from "../../src/dates.ts";
import { runSyncJob } from "../../src/jobs/sync-job.ts";
import { silentLogger } from "../../src/logger.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import {
  changesAnswer,
  type HostileRegistry,
  hostileEnv,
  item,
  startHostileRegistry,
} from "../helpers/hostile-registry.ts";
import { coveredRanges } from "../helpers/sync.ts";

// 08:00 in Budapest on 10 March 2024: 9 March is the last complete day.
const MORNING = new Date("2024-03-10T08:00:00+01:00");
const LIST = "wl_big";
const PER_DAY = 40;

describe("an answer too large for the cap", () => {
  let registry: HostileRegistry;
  let t: TestDatabase;
  /** Items per day; a day listed here holds that many instead of PER_DAY. */
  let heavy: Record<string, number> = {};

  beforeAll(async () => {
    registry = await startHostileRegistry({
      lists: [{ list_key: LIST, list_name: "big", created_at: "2024-03-01" }],
      changes: (q) => {
        const items = [];
        for (let day = q.from; day <= q.to; day = addDays(day, 1)) {
          const n = heavy[day] ?? PER_DAY;
          for (let i = 0; i < n; i++) {
            const taxId = String(10_000_000 + daysBetween("2024-03-01", day) * 1000 + i);
            items.push(item(registry.url, taxId, day));
          }
        }
        return changesAnswer(q.from, q.to, items);
      },
    });
  });
  afterEach(async () => {
    await t?.drop();
  });
  afterAll(async () => {
    await registry?.close();
  });

  // One day of PER_DAY items is about 6 KB: a cap of 10,000 bytes lets one day through, not two.
  const sync = () =>
    runSyncJob(
      {
        sql: t.db.sql,
        config: loadConfig(
          hostileEnv(registry, { REGWATCH_MAX_RESPONSE_BYTES: "10000", REGWATCH_FETCH_FILES: "none" }),
        ),
        log: silentLogger,
        trigger: "cli",
        now: () => MORNING,
      },
      { kind: "sync" },
    );

  it("is asked again in halves down to single days, and every day is read and covered", async () => {
    t = await createTestDatabase();
    heavy = {};
    registry.asked.length = 0;
    const result = await sync();
    expect(result.status, result.report?.errors.join("\n")).toBe("ok");
    expect(await coveredRanges(t.db.sql)).toEqual({ [LIST]: ["2024-03-01..2024-03-09"] });
    const [row] = await t.db.sql<{ n: number }[]>`select count(*)::int as n from regwatch.changes`;
    expect(row!.n).toBe(9 * PER_DAY);
    const asked = registry.asked.map((a) => `${a.from}..${a.to}`);
    expect(asked).toContain("2024-03-01..2024-03-07");
    expect(asked).toContain("2024-03-01..2024-03-04");
    expect(asked).toContain("2024-03-01..2024-03-01");
    expect(asked).toContain("2024-03-09..2024-03-09");
  }, 120_000);

  it("a single day still too large fails alone, naming the cap; the other days are covered", async () => {
    t = await createTestDatabase();
    heavy = { "2024-03-05": 200 };
    const result = await sync();
    expect(result.status).toBe("partial");
    expect(await coveredRanges(t.db.sql)).toEqual({
      [LIST]: ["2024-03-01..2024-03-04", "2024-03-06..2024-03-09"],
    });
    expect(result.report?.errors.join("\n")).toMatch(/2024-03-05\.\.2024-03-05.*REGWATCH_MAX_RESPONSE_BYTES/);
  }, 120_000);
});
