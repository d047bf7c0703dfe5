/**
 * The daemon's resume state as another process sees it (`regwatch status`): the latest scheduled
 * slot, whether its work is complete, when the next attempt is, or that the slot's attempts ran
 * out and the daemon waits for the next scheduled run. Derived from the runs table with the same
 * rule the daemon follows (schedule.ts), so both say the same.
 */
import type { Config } from "../config.ts";
import { cronMatcher } from "../cron.ts";
import { zonedStamp } from "../dates.ts";
import type { Sql } from "../db/connect.ts";
import { scheduledSyncsSince } from "../run/runs.ts";
import {
  type CronSchedule,
  cronSchedule,
  MAX_ATTEMPTS_PER_SLOT,
  MAX_RESUMES_AFTER_KILL,
  MAX_RETRY_BACKOFF_MS,
  previousScheduledTime,
  RETRY_AFTER_FAILURE_MS,
  type ResumeDecision,
  resumeDecision,
} from "./schedule.ts";

/**
 * The daemon's rule applied to the runs table: the latest slot, its scheduled syncs, and whether
 * a run is due. The daemon decides with it; `status` reports with it.
 */
export async function slotDecision(
  sql: Sql,
  schedule: CronSchedule,
  now: Date,
): Promise<{ slot: Date | undefined; attempts: number; kills: number; decision: ResumeDecision }> {
  const slot = previousScheduledTime(schedule, now);
  const runs = slot ? await scheduledSyncsSince(sql, slot) : [];
  const decision = resumeDecision({
    slot,
    runs,
    now,
    backoffMs: RETRY_AFTER_FAILURE_MS,
    maxBackoffMs: MAX_RETRY_BACKOFF_MS,
    maxAttempts: MAX_ATTEMPTS_PER_SLOT,
  });
  return {
    slot,
    attempts: runs.filter((r) => !r.stopped && !r.killed).length,
    kills: runs.filter((r) => r.killed).length,
    decision,
  };
}

export interface ResumeState {
  /** The latest scheduled instant (ISO), or null when the schedule has not fired yet. */
  slot: string | null;
  /**
   * complete, due (the next check runs it), backoff (nextAttemptAt), exhausted, killed (its run's
   * process died more often than it is resumed), no-slot.
   */
  state: "complete" | "due" | "backoff" | "exhausted" | "killed" | "no-slot";
  /** Attempts made for the slot (stopped runs not counted). */
  attempts: number;
  maxAttempts: number;
  nextAttemptAt: string | null;
  /** The next scheduled instant (ISO): after exhaustion, when work starts again. */
  nextScheduledRun: string | null;
  exhausted: boolean;
  /** Runs of the slot left 'running' by a process that died. */
  kills: number;
}

export async function readResumeState(
  sql: Sql,
  config: Pick<Config, "schedule" | "tz">,
  now = new Date(),
): Promise<ResumeState> {
  // The matcher a daemon's task runs by, without the task (src/cron.ts).
  const matcher = cronMatcher(config.schedule, config.tz);
  const schedule = cronSchedule(config.schedule, config.tz, (instant) => matcher.match(instant));
  const { slot, attempts, decision, kills } = await slotDecision(sql, schedule, now);
  const next = matcher.getNextMatch(new Date());
  return {
    slot: slot?.toISOString() ?? null,
    state: decision.due ? "due" : decision.reason,
    attempts,
    maxAttempts: MAX_ATTEMPTS_PER_SLOT,
    nextAttemptAt: decision.reason === "backoff" ? decision.nextAt.toISOString() : null,
    nextScheduledRun: next.toISOString(),
    exhausted: decision.reason === "exhausted" || decision.reason === "killed",
    kills,
  };
}

/**
 * One line for `status`, its times in `timeZone` with the zone's name (`status` passes
 * REGWATCH_TZ, the zone of the rest of its report).
 */
export function describeResumeState(r: ResumeState, timeZone = "UTC"): string {
  const at = (iso: string | null) => (iso ? zonedStamp(new Date(iso), timeZone) : "?");
  const slot = `the run scheduled at ${at(r.slot)}`;
  switch (r.state) {
    case "no-slot":
      return `no scheduled run yet; the first at ${at(r.nextScheduledRun)}`;
    case "complete":
      return `${slot} is complete; next at ${at(r.nextScheduledRun)}`;
    case "due":
      return `${slot} is due: a running daemon starts it at its next check`;
    case "backoff":
      return `${slot} is incomplete after ${r.attempts} attempt(s); the daemon tries again at ${at(r.nextAttemptAt)}`;
    case "exhausted":
      return (
        `${slot} is incomplete and its ${r.attempts} attempts ran out; the daemon waits for the next ` +
        `scheduled run at ${at(r.nextScheduledRun)} (run \`regwatch sync\` to finish it sooner)`
      );
    case "killed":
      return killedReason(r.kills, r.nextScheduledRun, timeZone);
  }
}

/** Why a slot is not resumed any more after its run's process died `kills` times (status, /readyz). */
export function killedReason(kills: number, nextScheduledRun: string | null, timeZone = "UTC"): string {
  const next = nextScheduledRun ? zonedStamp(new Date(nextScheduledRun), timeZone) : "?";
  return (
    `the latest scheduled run's process died ${kills} times (out of memory, a crash or a kill) and was ` +
    `resumed ${MAX_RESUMES_AFTER_KILL} times; waiting for the next scheduled run at ${next} ` +
    "(see the daemon's log; run `regwatch sync` to try now)"
  );
}
