/**
 * What `regwatch status` reports, computed beside the engine: coverage per list with its gaps
 * and calendar (the planner's interval arithmetic), the last runs, change files, item outcomes,
 * alert messages with how delivery fares, and API usage. Reads the database only; the command prints it.
 */

import { deliveryHealth } from "../alerts/sql/delivery-health.ts";
import { outboxCounts } from "../alerts/sql/outbox.ts";
import type { Config } from "../config.ts";
import {
  addDays,
  daysBetween,
  type Interval,
  isoInZone,
  lastCompleteDay,
  localDateTime,
  toEpochDay,
} from "../dates.ts";
import type { Sql } from "../db/connect.ts";
import { inOneRead } from "../db/one-read.ts";
import { gaps, mergeIntervals } from "../sync/plan.ts";
import { settledFiles } from "../sync/sql/settled-files.ts";
import { parseStatusCounts, unparsedExamples } from "./sql/parse-status.ts";
import {
  coverageByList,
  type DayRange,
  fileCounts,
  openFiles,
  openInvalidItems,
  outcomeCounts,
  recentRuns,
  usageSummary,
} from "./sql/status.ts";

export const CALENDAR_WEEKS = 8;
const RECENT_RUNS = 10;
const OPEN_FILES_SHOWN = 5;
const INVALID_ITEMS_SHOWN = 5;

export interface ListStatus {
  listKey: string;
  listName: string;
  createdAt: string | null;
  deleted: boolean;
  firstCovered: string | null;
  lastCovered: string | null;
  coveredDays: number;
  /** Uncovered days between the first and the last covered day. */
  gapDays: number;
  gaps: Array<DayRange & { days: number }>;
  /** Days from the last covered day to the last complete day. */
  behindDays: number | null;
  calendar: { from: string; days: string };
}

export type StatusReport<S = null> = Awaited<ReturnType<typeof readStatus<S>>>;

/**
 * Everything `regwatch status` shows, from the database alone. `readSchedule` gives the daemon's
 * view of its schedule (the daemon's rule, read by the caller's choice), or null without one; it
 * reads through the `sql` it is given, the report's own transaction.
 */
export async function readStatus<S = null>(
  sql: Sql,
  config: Pick<Config, "tz" | "searchMonthlyQuota"> & Partial<Pick<Config, "registryTz">>,
  now = new Date(),
  readSchedule?: (sql: Sql) => Promise<S>,
) {
  const local = localDateTime(now, config.tz);
  // Completeness follows the registry's 07:00 load in its own zone.
  const complete = lastCompleteDay(now, config.registryTz ?? config.tz);
  // All at once, pipelined on the connection, in one read-only transaction (one begin and one
  // commit, not one of each per statement; one state of the database). The statements with
  // parameters go last: on a fresh connection each waits for the server to describe it, and
  // whatever is queued behind it waits too.
  const [
    lists,
    runs,
    files,
    open,
    settled,
    outcomes,
    alertMessages,
    alertDelivery,
    parse,
    unreadable,
    invalid,
    usage,
    schedule,
  ] = await inOneRead(sql, (read) =>
    Promise.all([
      coverageByList(read),
      recentRuns(read, RECENT_RUNS),
      fileCounts(read),
      openFiles(read, OPEN_FILES_SHOWN),
      settledFiles(read, OPEN_FILES_SHOWN),
      outcomeCounts(read),
      outboxCounts(read),
      deliveryHealth(read),
      parseStatusCounts(read),
      unparsedExamples(read, OPEN_FILES_SHOWN),
      openInvalidItems(read, INVALID_ITEMS_SHOWN),
      usageSummary(read, local.date, local.date.slice(0, 7)),
      readSchedule ? readSchedule(read) : null,
    ]),
  );
  const searchThisMonth = usage.month.find((u) => u.api === "search")?.requests ?? 0;
  return {
    // With the zone's offset, as every instant of `status --json` is written.
    generatedAt: isoInZone(now, config.tz),
    timeZone: config.tz,
    today: local.date,
    lastCompleteDay: complete,
    lists: lists.map((l) => listStatus(l, complete, local.date)),
    schedule,
    runs,
    files: { counts: files, open, failedForGood: settled, parse, unreadable },
    outcomes,
    alertMessages,
    /** How the delivery passes fare: null until one first fails. */
    alertDelivery,
    invalidItems: invalid,
    intervalDisagreements: latestDisagreements(runs),
    usage: {
      today: { day: local.date, byApi: usage.today },
      month: { month: local.date.slice(0, 7), byApi: usage.month },
      search: { used: searchThisMonth, quota: config.searchMonthlyQuota },
    },
  };
}

export function listStatus(
  list: {
    listKey: string;
    listName: string;
    createdAt: string | null;
    deleted: boolean;
    intervals: DayRange[];
  },
  lastComplete: string,
  today: string,
): ListStatus {
  const merged = mergeIntervals(list.intervals);
  const gaps = coverageGaps(merged).map((g) => ({ ...g, days: daysBetween(g.start, g.end) + 1 }));
  const first = merged[0]?.start ?? null;
  const last = merged.at(-1)?.end ?? null;
  return {
    listKey: list.listKey,
    listName: list.listName,
    createdAt: list.createdAt,
    deleted: list.deleted,
    firstCovered: first,
    lastCovered: last,
    coveredDays: merged.reduce((n, r) => n + daysBetween(r.start, r.end) + 1, 0),
    gapDays: gaps.reduce((n, g) => n + g.days, 0),
    gaps,
    behindDays: last === null ? null : Math.max(0, daysBetween(last, lastComplete)),
    calendar: calendar(merged, { createdAt: list.createdAt, lastComplete, today, weeks: CALENDAR_WEEKS }),
  };
}

/** The holes between the first and the last covered day (the same arithmetic the planner uses). */
export function coverageGaps(covered: readonly Interval[]): Interval[] {
  const merged = mergeIntervals(covered);
  if (merged.length === 0) return [];
  return gaps({ start: merged[0]!.start, end: merged.at(-1)!.end }, merged);
}

/**
 * One character a day for `weeks` weeks ending with the week of `today`, Monday first, weeks
 * separated by a space: `#` covered, `.` due but missing, `-` not yet due, blank before the list.
 */
export function calendar(
  merged: readonly DayRange[],
  options: { createdAt: string | null; lastComplete: string; today: string; weeks: number },
): { from: string; days: string } {
  // 1970-01-01 was a Thursday: epoch day + 3 modulo 7 counts days since Monday.
  const sinceMonday = (((toEpochDay(options.today) + 3) % 7) + 7) % 7;
  const from = addDays(options.today, -sinceMonday - (options.weeks - 1) * 7);
  let days = "";
  for (let i = 0; i < options.weeks * 7; i++) {
    const day = addDays(from, i);
    if (i > 0 && i % 7 === 0) days += " ";
    if (merged.some((r) => r.start <= day && day <= r.end)) days += "#";
    else if (day > options.lastComplete) days += "-";
    else if (options.createdAt !== null && day < options.createdAt) days += " ";
    else days += ".";
  }
  return { from, days };
}

/** Per list, the answers of the newest sync or backfill whose interval differed from what was asked. */
function latestDisagreements(runs: readonly { kind: string; stats: Record<string, unknown> }[]) {
  const latest = runs.find(
    (r) => (r.kind === "sync" || r.kind === "backfill") && r.stats.intervalDisagreements,
  );
  return (latest?.stats.intervalDisagreements ?? {}) as Record<
    string,
    { wider: number; narrower: number; elsewhere: number; example: string }
  >;
}
