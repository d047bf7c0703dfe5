/**
 * How `status` and `doctor` say that alert delivery fails and why, from the health row and the
 * outbox's counts (English, as every terminal report of regwatch). Pure: the readers pass the facts.
 */
import { zonedStamp } from "../dates.ts";
import type { DeliveryHealth } from "./sql/delivery-health.ts";

/** What to do while delivery fails. */
export const FAILING_NEXT =
  "fix what the error names; each message a failing pass held was charged a failed attempt and goes dead after REGWATCH_ALERT_MAX_ATTEMPTS attempts or REGWATCH_ALERT_GIVE_UP_HOURS; `regwatch alerts deliver` tries every pending message at once";

/** "45 s", "12 min", "3.2 h", "2.5 d": an age, roughly. */
export function roughAge(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  if (s < 172_800) return `${(s / 3600).toFixed(1)} h`;
  return `${(s / 86_400).toFixed(1)} d`;
}

/** The failing streak in one sentence, or undefined while delivery works. */
export function failingText(health: DeliveryHealth | null, timeZone: string): string | undefined {
  if (!health || health.failuresInRow === 0) return undefined;
  const n = health.failuresInRow;
  const passes = n === 1 ? "the last delivery pass failed" : `the last ${n} delivery passes failed`;
  const since = n > 1 && health.failingSince ? ` since ${zonedStamp(health.failingSince, timeZone)}` : "";
  const last = health.lastFailedAt ? `, the last at ${zonedStamp(health.lastFailedAt, timeZone)}` : "";
  return `${passes}${since}${last}: ${health.lastError ?? "no error recorded"}`;
}

/** The last failure of a streak that ended, or undefined when none (or while one goes on). */
export function recoveredText(health: DeliveryHealth | null, timeZone: string): string | undefined {
  if (!health || health.failuresInRow > 0 || !health.lastFailedAt) return undefined;
  const since = health.recoveredAt
    ? `; passes deliver again since ${zonedStamp(health.recoveredAt, timeZone)}`
    : "";
  return `the last failed delivery pass was at ${zonedStamp(health.lastFailedAt, timeZone)} (${health.lastError ?? "no error recorded"})${since}`;
}

/** "3 pending, the oldest queued 2.1 h ago", or "none pending". */
export function pendingText(counts: { pending: number; oldestPendingSeconds: number }): string {
  if (counts.pending === 0) return "none pending";
  return `${counts.pending} pending, the oldest queued ${roughAge(counts.oldestPendingSeconds)} ago`;
}
