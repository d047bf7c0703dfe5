import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addDays, daysBetween } from "../../src/dates.ts";
import {
  gaps,
  type Interval,
  mergeIntervals,
  packWindows,
  planList,
  remainder,
} from "../../src/sync/plan.ts";

const BASE = "2025-01-01";
const day = (n: number) => addDays(BASE, n);

function daysOf(intervals: readonly Interval[]): Set<string> {
  const set = new Set<string>();
  for (const i of intervals) for (let d = i.start; d <= i.end; d = addDays(d, 1)) set.add(d);
  return set;
}

describe("window planning", () => {
  it("covers a list from its start to the last complete day in 7-day windows", () => {
    const windows = planList(
      { listKey: "a", start: "2025-01-01", covered: [] },
      { lastComplete: "2025-01-20", lookbackDays: 6 },
    );
    expect(windows).toEqual([
      { start: "2025-01-01", end: "2025-01-07" },
      { start: "2025-01-08", end: "2025-01-14" },
      { start: "2025-01-15", end: "2025-01-20" },
    ]);
  });

  it("asks only the lookback window once everything before yesterday is covered", () => {
    const windows = planList(
      { listKey: "a", start: "2025-01-01", covered: [{ start: "2025-01-01", end: "2025-01-20" }] },
      { lastComplete: "2025-01-21", lookbackDays: 6 },
    );
    expect(windows).toEqual([{ start: "2025-01-15", end: "2025-01-21" }]);
  });

  it("asks nothing when there is no gap", () => {
    const covered = [{ start: "2025-01-01", end: "2025-01-21" }];
    expect(
      planList(
        { listKey: "a", start: "2025-01-01", covered },
        { lastComplete: "2025-01-21", lookbackDays: 6 },
      ),
    ).toEqual([]);
  });

  it("fills a hole in the middle and packs two small gaps into one window", () => {
    const covered = [
      { start: "2025-01-01", end: "2025-01-09" },
      { start: "2025-01-11", end: "2025-01-12" },
      { start: "2025-01-14", end: "2025-01-31" },
    ];
    const windows = planList(
      { listKey: "a", start: "2025-01-01", covered },
      { lastComplete: "2025-01-31", lookbackDays: 0 },
    );
    expect(windows).toEqual([{ start: "2025-01-10", end: "2025-01-16" }]);
  });

  it("re-reads everything in range with refetch, and stays inside a backfill's bounds", () => {
    const covered = [{ start: "2025-01-01", end: "2025-01-31" }];
    const windows = planList(
      { listKey: "a", start: "2024-12-01", covered },
      { lastComplete: "2025-02-10", lookbackDays: 0, from: "2025-01-05", to: "2025-01-12", refetch: true },
    );
    expect(windows).toEqual([
      { start: "2025-01-05", end: "2025-01-11" },
      { start: "2025-01-12", end: "2025-01-12" },
    ]);
  });

  it("computes what the server left out of an answer", () => {
    expect(
      remainder({ start: "2025-01-01", end: "2025-01-07" }, { start: "2025-01-01", end: "2025-01-05" }),
    ).toEqual([{ start: "2025-01-06", end: "2025-01-07" }]);
  });

  const intervalArb = fc
    .tuple(fc.integer({ min: 0, max: 120 }), fc.integer({ min: 0, max: 20 }))
    .map(([s, len]) => ({ start: day(s), end: day(s + len) }));

  it("never plans today, a window over 7 days, or leaves a gap day uncovered (property)", () => {
    fc.assert(
      fc.property(
        fc.array(intervalArb, { maxLength: 8 }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 150 }),
        fc.integer({ min: 0, max: 10 }),
        (covered, startOffset, lastOffset, lookbackDays) => {
          const start = day(startOffset);
          const lastComplete = day(lastOffset);
          const windows = planList({ listKey: "x", start, covered }, { lastComplete, lookbackDays });
          for (const w of windows) {
            expect(w.start <= w.end).toBe(true);
            expect(daysBetween(w.start, w.end) + 1).toBeLessThanOrEqual(7);
            expect(w.end <= lastComplete).toBe(true);
            expect(w.start >= start).toBe(true);
          }
          const read = daysOf(windows);
          for (const g of gaps({ start, end: lastComplete }, covered)) {
            for (const d of daysOf([g])) expect(read.has(d)).toBe(true);
          }
          // minimal: each window starts at a day that no earlier window read
          for (let i = 1; i < windows.length; i++) expect(windows[i]!.start > windows[i - 1]!.end).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("uses the fewest windows: no plan with fewer 7-day windows covers the needed days (property)", () => {
    fc.assert(
      fc.property(fc.array(intervalArb, { maxLength: 6 }), (need) => {
        const windows = packWindows(need, day(200));
        const needed = [...daysOf(mergeIntervals(need))].sort();
        // Lower bound by the greedy argument: count disjoint 7-day spans needed starting at needed days.
        let count = 0;
        let reach = "";
        for (const d of needed) {
          if (reach && d <= reach) continue;
          count++;
          reach = addDays(d, 6);
        }
        expect(windows).toHaveLength(count);
      }),
    );
  });
});
