import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WatchClient } from "../../src/api/watch-client.ts";
import { addDays } from "../../src/dates.ts";
import { silentLogger } from "../../src/logger.ts";
import { noProgress } from "../../src/sync/progress.ts";
import { runWindows } from "../../src/sync/window-run.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { waitUntil } from "../helpers/wait.ts";

/** Weekly windows of one list from 2024-03-04, and a client answering each with one change at once. */
function weeks(count: number) {
  const windows = Array.from({ length: count }, (_, i) => ({
    listKey: "wl_behind",
    start: addDays("2024-03-04", 7 * i),
    end: addDays("2024-03-04", 7 * i + 6),
  }));
  const asked: string[] = [];
  const watch = {
    changes: async (_listKey: string, from: string, to: string) => {
      asked.push(from);
      const item = {
        change: from,
        tax_id: String(20_000_000 + asked.length),
        chapter: "1",
        changed_headings: ["name"],
        path: `https://files.example/behind/${from}.json`,
      };
      return {
        startDate: from,
        endDate: to,
        items: [{ item, raw: item as unknown as Record<string, unknown> }],
      };
    },
  } as unknown as WatchClient;
  return { windows, asked, watch };
}

describe("window writes behind the requests", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("asks the next window while a write waits on the database, and holds a bounded number of answers", {
    timeout: 20_000,
  }, async () => {
    const { windows, asked, watch } = weeks(6);
    // Another transaction holds the coverage table: every window's write waits until it ends.
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const blocker = t.db.sql.begin(async (tx) => {
      await tx`lock table ${tx.t.coverage} in exclusive mode`;
      locked();
      await held;
    });
    await isLocked;
    const run = runWindows(windows, {
      sql: t.db.sql,
      watch,
      log: silentLogger,
      runId: null,
      concurrency: 1,
      progress: noProgress,
      lastComplete: "2024-12-31",
      endInclusive: true,
    });
    // One window at a time is configured, and the first one's write is stuck: the second window
    // is asked all the same.
    await waitUntil(() => asked.length >= 2, { what: "the second window asked", everyMs: 5 });
    // Then the asking stops: one answer waiting to be written and one waiting for room, no more.
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(asked).toHaveLength(2);
    release();
    await blocker;
    const stats = await run;
    expect(stats.errors).toEqual([]);
    expect(stats.windowsDone).toBe(6);
    expect(asked).toHaveLength(6);
    const [row] = await t.db.sql<{ n: number }[]>`select count(*)::int as n from ${t.db.sql.t.coverage}`;
    expect(row!.n).toBe(6);
  });
});
