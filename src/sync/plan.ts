/**
 * Window planning, pure. Works on epoch days internally; dates in and out are YYYY-MM-DD.
 * The registry answers one list per request for at most a week, so the plan is the fewest
 * windows of at most 7 days that cover every day that needs reading.
 */
import { addDays, daysBetween, fromEpochDay, type Interval, toEpochDay } from "../dates.ts";

export type { Interval } from "../dates.ts";

export const MAX_WINDOW_DAYS = 7;

export interface Window extends Interval {
  listKey: string;
}

/** Merges intervals (inclusive days) into sorted, disjoint, non-adjacent ones. */
export function mergeIntervals(intervals: readonly Interval[]): Interval[] {
  const sorted = intervals
    .map((i) => [toEpochDay(i.start), toEpochDay(i.end)] as const)
    .filter(([s, e]) => s <= e)
    .sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [s, e] of sorted) {
    const last = merged.at(-1);
    if (last && s <= last[1] + 1) last[1] = Math.max(last[1], e);
    else merged.push([s, e]);
  }
  return merged.map(([s, e]) => ({ start: fromEpochDay(s), end: fromEpochDay(e) }));
}

/** Days of [range.start, range.end] that no covered interval contains, as intervals. */
export function gaps(range: Interval, covered: readonly Interval[]): Interval[] {
  if (range.start > range.end) return [];
  const result: Interval[] = [];
  let cursor = range.start;
  for (const c of mergeIntervals(covered)) {
    if (c.end < cursor) continue;
    if (c.start > range.end) break;
    if (c.start > cursor) result.push({ start: cursor, end: minDay(addDays(c.start, -1), range.end) });
    cursor = addDays(c.end, 1);
    if (cursor > range.end) return result;
  }
  if (cursor <= range.end) result.push({ start: cursor, end: range.end });
  return result;
}

/**
 * The fewest windows of at most `maxDays` covering every day of `need`, none reaching past
 * `limit`. Greedy from the earliest uncovered day is optimal for fixed-length covering; a
 * window may re-read covered days between two needed stretches, which costs nothing extra.
 */
export function packWindows(need: readonly Interval[], limit: string, maxDays = MAX_WINDOW_DAYS): Interval[] {
  const windows: Interval[] = [];
  let coveredThrough = Number.NEGATIVE_INFINITY;
  const lim = toEpochDay(limit);
  for (const stretch of mergeIntervals(need)) {
    let s = Math.max(toEpochDay(stretch.start), coveredThrough + 1);
    const e = Math.min(toEpochDay(stretch.end), lim);
    while (s <= e) {
      const end = Math.min(s + maxDays - 1, lim);
      windows.push({ start: fromEpochDay(s), end: fromEpochDay(end) });
      coveredThrough = end;
      s = end + 1;
    }
  }
  return windows;
}

export interface ListPlanInput {
  listKey: string;
  /** First day to cover (REGWATCH_START_DATE, else the list's created_at). */
  start: string;
  covered: readonly Interval[];
}

export interface PlanOptions {
  /** Newest complete day (never today). */
  lastComplete: string;
  /** Days re-read before the newest gap (sync); 0 for backfills. */
  lookbackDays: number;
  /** Optional bounds of a backfill. */
  from?: string;
  to?: string;
  /** Ignore coverage inside [from, to] and read it all again. */
  refetch?: boolean;
}

/** The windows one list needs: its gaps (plus the lookback before the newest one), packed. */
export function planList(input: ListPlanInput, options: PlanOptions): Interval[] {
  const start = maxDay(input.start, options.from ?? input.start);
  const end = minDay(options.lastComplete, options.to ?? options.lastComplete);
  if (start > end) return [];
  const range = { start, end };
  const holes = options.refetch ? [range] : gaps(range, input.covered);
  const newest = holes.at(-1);
  if (newest && options.lookbackDays > 0) {
    const lookbackStart = maxDay(input.start, addDays(newest.start, -options.lookbackDays));
    holes.push({ start: lookbackStart, end: newest.start });
  }
  return packWindows(holes, end);
}

/** Plans every list; windows are ordered oldest first within a list, lists interleaved. */
export function planWindows(inputs: readonly ListPlanInput[], options: PlanOptions): Window[] {
  const perList = inputs.map((input) =>
    planList(input, options).map((w) => ({ ...w, listKey: input.listKey })),
  );
  const result: Window[] = [];
  for (let i = 0; perList.some((l) => i < l.length); i++) {
    for (const list of perList) if (i < list.length) result.push(list[i]!);
  }
  return result;
}

/**
 * An interval cut in two halves (the first one the longer by a day when the length is odd), or
 * undefined for a single day, which cannot be cut.
 */
export function halves(interval: Interval): [Interval, Interval] | undefined {
  const days = daysBetween(interval.start, interval.end);
  if (days < 1) return undefined;
  const firstEnd = addDays(interval.start, Math.floor(days / 2));
  return [
    { start: interval.start, end: firstEnd },
    { start: addDays(firstEnd, 1), end: interval.end },
  ];
}

/** What remains of an asked window after the server answered for `returned`. */
export function remainder(asked: Interval, returned: Interval): Interval[] {
  return gaps(asked, [returned]);
}

function minDay(a: string, b: string): string {
  return a <= b ? a : b;
}

function maxDay(a: string, b: string): string {
  return a >= b ? a : b;
}
