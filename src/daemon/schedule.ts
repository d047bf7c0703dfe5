/**
 * When the daemon should run: the most recent scheduled instant of a cron expression in a time
 * zone, and whether a run is due for it (missed, stopped or failed: resumeDecision). Pure: the
 * caller supplies the instant and what the database says, so the rules are unit-tested without a
 * clock, a database or a timer.
 *
 * node-cron 4 computes the next run but not the previous one. Rather than a second cron library
 * (a second reading of the same expression that could disagree with the scheduler), the
 * candidates are generated here from node-cron's own parse of the expression, and each is
 * confirmed with the scheduling task's own `match`, so day-of-month and weekday rules (L, W, #,
 * names) mean exactly what they mean to the scheduler.
 */
import { nodeCron } from "../cron.ts";
import { addDays, localDateTime } from "../dates.ts";

/** After a failed run, catch-up checks wait this long before trying again. */
export const RETRY_AFTER_FAILURE_MS = 15 * 60_000;
/** The backoff after unsuccessful attempts doubles from RETRY_AFTER_FAILURE_MS up to this. */
export const MAX_RETRY_BACKOFF_MS = 4 * 3600_000;
/** Attempts for one scheduled slot while windows stay incomplete (15+30+60+120 min of backoff). */
export const MAX_ATTEMPTS_PER_SLOT = 5;
/**
 * Resumes of one slot after its run's process died (OOM, crash, SIGKILL). A run that kills its
 * process every time would otherwise be started again on every restart, forever.
 */
export const MAX_RESUMES_AFTER_KILL = 3;
/** The wait before resuming a killed run; doubles with each kill of the slot (1, 2, 4 minutes). */
export const RESUME_AFTER_KILL_MS = 60_000;

/** What the computation needs of a schedule: node-cron's parse and its matcher. */
export interface CronSchedule {
  hours: readonly number[];
  minutes: readonly number[];
  seconds: readonly number[];
  timeZone: string;
  /** True when the expression fires at this instant (node-cron's `task.match`). */
  matches(instant: Date): boolean;
}

/** How far back to look: a 29 February schedule repeats within eight years. */
const MAX_DAYS_BACK = 366 * 8;

export function cronSchedule(
  expression: string,
  timeZone: string,
  matches: (instant: Date) => boolean,
): CronSchedule {
  const fields = nodeCron().parse(expression);
  const desc = (values: readonly number[]) => [...values].sort((a, b) => b - a);
  return {
    hours: desc(fields.hour),
    minutes: desc(fields.minute),
    seconds: desc(fields.second),
    timeZone,
    matches,
  };
}

/**
 * The latest instant at or before `now` at which the schedule fires, or undefined when it has not
 * fired within eight years. A wall-clock time skipped by a daylight-saving jump has no instant and
 * is passed over; one repeated by the jump back counts at its later instant.
 */
export function previousScheduledTime(schedule: CronSchedule, now: Date): Date | undefined {
  const nowLocal = localWallTime(now, schedule.timeZone);
  // Later wall times of today are in the future, unless the clock went back an hour today.
  const slack = clockShiftsOn(nowLocal.date, schedule.timeZone) ? 3600 : 0;
  for (let back = 0; back <= MAX_DAYS_BACK; back++) {
    const date = addDays(nowLocal.date, -back);
    const found = latestOnDay(schedule, date, now, back === 0 ? nowLocal.seconds + slack : Infinity);
    if (found) return found;
  }
  return undefined;
}

/** The latest firing on a local day not after `now`, if any. */
function latestOnDay(
  schedule: CronSchedule,
  date: string,
  now: Date,
  maxSecondOfDay: number,
): Date | undefined {
  for (const hour of schedule.hours) {
    for (const minute of schedule.minutes) {
      for (const second of schedule.seconds) {
        // Times later in the day than now are skipped without computing an instant.
        if (hour * 3600 + minute * 60 + second > maxSecondOfDay) continue;
        const instants = wallTimeInstants(date, hour, minute, second, schedule.timeZone);
        if (instants.length === 0) continue;
        // The time fields are in the schedule's sets, so a miss can only be the day's date.
        if (!schedule.matches(instants[0]!)) return undefined;
        const eligible = instants.filter((i) => i.getTime() <= now.getTime());
        if (eligible.length > 0) return eligible.at(-1);
      }
    }
  }
  return undefined;
}

/** Instants (0, 1 or 2, ascending) at which the wall clock of `timeZone` shows this time. */
export function wallTimeInstants(
  date: string,
  hour: number,
  minute: number,
  second: number,
  timeZone: string,
): Date[] {
  const asUtc = Date.parse(`${date}T00:00:00Z`) + (hour * 3600 + minute * 60 + second) * 1000;
  const offsets = new Set([
    offsetMs(asUtc - 14 * 3600_000, timeZone),
    offsetMs(asUtc + 14 * 3600_000, timeZone),
  ]);
  const found: Date[] = [];
  for (const offset of offsets) {
    const instant = new Date(asUtc - offset);
    const local = localWallTime(instant, timeZone);
    if (local.date === date && local.seconds === hour * 3600 + minute * 60 + second) found.push(instant);
  }
  return found.sort((a, b) => a.getTime() - b.getTime());
}

function clockShiftsOn(date: string, timeZone: string): boolean {
  const midnight = Date.parse(`${date}T00:00:00Z`);
  return offsetMs(midnight - 12 * 3600_000, timeZone) !== offsetMs(midnight + 36 * 3600_000, timeZone);
}

/** Local date and second of the day of an instant in a time zone. */
function localWallTime(instant: Date, timeZone: string): { date: string; seconds: number } {
  const local = localDateTime(instant, timeZone);
  return { date: local.date, seconds: local.hour * 3600 + local.minute * 60 + local.second };
}

/** Offset of the zone from UTC at an instant (positive east of Greenwich). */
function offsetMs(epochMs: number, timeZone: string): number {
  const instant = new Date(Math.floor(epochMs / 1000) * 1000);
  const local = localWallTime(instant, timeZone);
  const wallAsUtc = Date.parse(`${local.date}T00:00:00Z`) + local.seconds * 1000;
  return wallAsUtc - instant.getTime();
}

/** A scheduled or catch-up sync that started after the slot, as the resume rule needs it. */
export interface SlotRun {
  status: "ok" | "partial" | "failed";
  /** Ended by a stop request (a deploy, a drain): not a failure, resumed without waiting. */
  stopped: boolean;
  /** Left 'running' by a process that died: resumed after a growing wait, at most MAX_RESUMES_AFTER_KILL times. */
  killed?: boolean;
  /** Ended because the database went away: retried as soon as the database answers again. */
  databaseLost?: boolean;
  /** Some windows of the day are still uncovered after it (failed or not reached). */
  windowsIncomplete: boolean;
  finishedAt: Date;
}

export interface ResumeInput {
  /** The most recent scheduled instant (previousScheduledTime). */
  slot: Date | undefined;
  /** Syncs started since the slot, oldest first. */
  runs: readonly SlotRun[];
  now: Date;
  /** Wait after the first unsuccessful attempt; doubles with each further one, up to `maxBackoffMs`. */
  backoffMs: number;
  maxBackoffMs: number;
  /** Attempts for one slot while windows are incomplete; files alone failing are retried without limit. */
  maxAttempts: number;
  /** Resumes after a killed run (MAX_RESUMES_AFTER_KILL) and the first wait (RESUME_AFTER_KILL_MS). */
  maxKillResumes?: number;
  killBackoffMs?: number;
}

export type ResumeDecision =
  | { due: true; reason: "scheduled" | "resume-stopped" | "retry" }
  | { due: false; reason: "no-slot" | "complete" }
  | { due: false; reason: "backoff"; nextAt: Date }
  | { due: false; reason: "exhausted"; attempts: number }
  | { due: false; reason: "killed"; kills: number };

/**
 * Whether the daemon should run now for the latest slot. The day is complete once a sync since
 * the slot ended ok. A run cut short by a stop is resumed at once; one whose process died is resumed
 * after 1, 2, 4 minutes, at most three times (then the slot waits for the next schedule); one that
 * lost its database is retried at once (it only runs when the database answers); one partial or failed
 * is retried after a backoff that grows with each attempt. While windows stay incomplete the
 * attempts are bounded (then the next slot takes over); failing files alone keep being retried.
 */
export function resumeDecision(input: ResumeInput): ResumeDecision {
  if (!input.slot) return { due: false, reason: "no-slot" };
  if (input.runs.length === 0) return { due: true, reason: "scheduled" };
  if (input.runs.some((r) => r.status === "ok")) return { due: false, reason: "complete" };
  const last = input.runs.at(-1)!;
  if (last.stopped) return { due: true, reason: "resume-stopped" };
  if (last.killed) {
    const kills = input.runs.filter((r) => r.killed).length;
    if (kills > (input.maxKillResumes ?? MAX_RESUMES_AFTER_KILL))
      return { due: false, reason: "killed", kills };
    const wait = (input.killBackoffMs ?? RESUME_AFTER_KILL_MS) * 2 ** (kills - 1);
    const nextAt = new Date(last.finishedAt.getTime() + wait);
    if (input.now.getTime() < nextAt.getTime()) return { due: false, reason: "backoff", nextAt };
    return { due: true, reason: "resume-stopped" };
  }
  const attempts = input.runs.filter((r) => !r.stopped && !r.killed).length;
  if ((last.windowsIncomplete || last.status === "failed") && attempts >= input.maxAttempts)
    return { due: false, reason: "exhausted", attempts };
  // The database going away is no fault of the registry's: the next check runs it once it answers.
  if (last.databaseLost) return { due: true, reason: "retry" };
  const wait = Math.min(input.backoffMs * 2 ** (attempts - 1), input.maxBackoffMs);
  const nextAt = new Date(last.finishedAt.getTime() + wait);
  if (input.now.getTime() < nextAt.getTime()) return { due: false, reason: "backoff", nextAt };
  return { due: true, reason: "retry" };
}
