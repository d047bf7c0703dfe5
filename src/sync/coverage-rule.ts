/**
 * What one changes answer proves, pure. Only days that were asked, that the answer says it covers
 * and that are complete count as covered; an answer claiming more is believed for nothing more.
 */
import { addDays } from "../dates.ts";
import type { Interval } from "./plan.ts";

/** The days common to every interval, or null when they share none. */
export function intersect(...intervals: Interval[]): Interval | null {
  let start = intervals[0]!.start;
  let end = intervals[0]!.end;
  for (const i of intervals) {
    if (i.start > start) start = i.start;
    if (i.end < end) end = i.end;
  }
  return start <= end ? { start, end } : null;
}

/** The request's end parameter: the last day itself, or the day after when the registry's end is exclusive. */
export function requestEnd(lastDay: string, endInclusive: boolean): string {
  return endInclusive ? lastDay : addDays(lastDay, 1);
}

/** The answered days, inclusive, from the answer's start_date/end_date. */
export function answeredDays(startDate: string, endDate: string, endInclusive: boolean): Interval {
  return { start: startDate, end: endInclusive ? endDate : addDays(endDate, -1) };
}

export type Disagreement = "wider" | "narrower" | "elsewhere" | undefined;

/** How an answer's interval differs from what was asked (both inclusive days). */
export function disagreement(asked: Interval, answered: Interval): Disagreement {
  if (answered.start === asked.start && answered.end === asked.end) return undefined;
  if (!intersect(asked, answered)) return "elsewhere";
  if (answered.start < asked.start || answered.end > asked.end) return "wider";
  return "narrower";
}
