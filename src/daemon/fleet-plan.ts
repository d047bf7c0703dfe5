/**
 * The fleet daemon's decisions, apart from any clock, timer or database: each account's schedule
 * (its own, else the global one), the day a scheduled slot stands for in the account's zone, which
 * jobs a check asks the queue for, and how often an account's outbox is looked at. The rule that a
 * slot is due is the plain daemon's own (resume-state.ts slotDecision), read in the account's schema.
 */
import type { Config } from "../config.ts";
import { daysBetween, lastCompleteDay, localDateTime } from "../dates.ts";
import type { JobPayload } from "../fleet/jobs.ts";
import type { ResumeDecision } from "./schedule.ts";

/** What the scheduler needs of an accounts-file entry (src/accounts.ts Account). */
export interface ScheduledAccount {
  name: string;
  schema: string;
  schedule?: string;
  timezone?: string;
}

export interface AccountSchedule {
  account: string;
  schema: string;
  /** Cron expression: the account's `schedule`, else REGWATCH_SCHEDULE. */
  schedule: string;
  /** IANA zone: the account's `timezone`, else REGWATCH_TZ. */
  timeZone: string;
}

/**
 * A job the daemon asks the queue for: a sync for a slot's local day, or a delivery pass (the
 * queue's job key dedupes repeats: account, kind, day).
 */
export type ScheduledJob = Extract<JobPayload, { kind: "sync" | "deliver" }>;

/** An outbox is looked at for due messages at most this often per account. */
export const DELIVER_CHECK_EVERY_MS = 60_000;

export function accountSchedules(
  accounts: readonly ScheduledAccount[],
  base: Pick<Config, "schedule" | "tz">,
): AccountSchedule[] {
  return accounts.map((a) => ({
    account: a.name,
    schema: a.schema,
    schedule: a.schedule ?? base.schedule,
    timeZone: a.timezone ?? base.tz,
  }));
}

/** The local day (YYYY-MM-DD) of a slot in the account's zone: the day part of the sync job's key. */
export function slotDay(slot: Date, timeZone: string): string {
  return localDateTime(slot, timeZone).date;
}

/**
 * The sync job a check asks for: one when the slot's work is due (never run, stopped, or retried
 * after its backoff). Asking again for a job still queued or running is harmless: its key
 * is the same, so the queue keeps the one it has; one that failed for good is replaced, so the
 * slot's retries (bounded by the runs it recorded) are not held by its key.
 */
export function syncJobFor(
  schedule: AccountSchedule,
  slot: Date | undefined,
  decision: ResumeDecision,
): ScheduledJob | undefined {
  if (!slot || !decision.due) return undefined;
  return { kind: "sync", account: schedule.account, day: slotDay(slot, schedule.timeZone) };
}

/** Remembers when each account's outbox was last looked at, so a check looks at most once a minute. */
export class DeliverThrottle {
  private readonly lastLook = new Map<string, number>();

  constructor(private readonly everyMs = DELIVER_CHECK_EVERY_MS) {}

  /** True (and the look recorded) when the account's outbox has not been looked at for `everyMs`. */
  take(account: string, now: Date): boolean {
    const last = this.lastLook.get(account);
    if (last !== undefined && now.getTime() - last < this.everyMs) return false;
    this.lastLook.set(account, now.getTime());
    return true;
  }
}

/**
 * Days between the account's coverage end (every live list covered up to it) and the last
 * complete day; 0 when up to date, null when nothing is covered yet.
 */
export function daysBehind(coverageEnd: string | null, now: Date, registryTz: string): number | null {
  if (coverageEnd === null) return null;
  return Math.max(0, daysBetween(coverageEnd, lastCompleteDay(now, registryTz)));
}
