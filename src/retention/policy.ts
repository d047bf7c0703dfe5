/**
 * The retention policy, pure: the kinds of personal data regwatch keeps, how long each is kept
 * (REGWATCH_RETAIN_*_DAYS), the day before which a kind's data goes, and the rule said in words
 * for the record (`retention_runs.policy`). No I/O here.
 */
import type { RetentionSettings } from "../config.ts";
import { addDays } from "../dates.ts";

export { REMOVED_TEXT } from "../removed-marker.ts";

export const RETENTION_KINDS = [
  "representatives",
  "sole_proprietors",
  "change_bodies",
  "payment_rows",
  "payment_files",
  "alert_replies",
  "sign_ins",
] as const;
export type RetentionKind = (typeof RETENTION_KINDS)[number];

/** What a kind's expired data becomes: deleted (or its body dropped), or replaced by the marker. */
export type RetentionAction = "removed" | "pseudonymised";

const ACTIONS: Record<RetentionKind, RetentionAction> = {
  representatives: "pseudonymised",
  sole_proprietors: "pseudonymised",
  change_bodies: "removed",
  payment_rows: "removed",
  payment_files: "removed",
  alert_replies: "pseudonymised",
  sign_ins: "removed",
};

const SETTING: Record<RetentionKind, keyof Omit<RetentionSettings, "batch">> = {
  representatives: "representatives",
  sole_proprietors: "soleProprietors",
  change_bodies: "changeBodies",
  payment_rows: "paymentRows",
  payment_files: "paymentFiles",
  alert_replies: "alertReplies",
  sign_ins: "signIns",
};

/** One kind's rule for a pass run on `today`: data dated before `before` goes. */
export interface KindRule {
  kind: RetentionKind;
  action: RetentionAction;
  days: number;
  /** The cut-off day (YYYY-MM-DD): data of this day or later is kept. */
  before: string;
  /** The rule in words, recorded with the pass. */
  policy: string;
}

/** Every kind's rule for a pass on `today` (YYYY-MM-DD in REGWATCH_TZ). */
export function retentionRules(settings: RetentionSettings, today: string): KindRule[] {
  return RETENTION_KINDS.map((kind) => {
    const days = settings[SETTING[kind]];
    const before = addDays(today, -days);
    return { kind, action: ACTIONS[kind], days, before, policy: `${kind}: ${days} days (before ${before})` };
  });
}
