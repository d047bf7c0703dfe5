/**
 * A retention pass: every kind's count (`--dry-run`), or its removal in batches of at most
 * REGWATCH_RETENTION_BATCH rows, each batch its own committed statement, then one record per kind
 * in `retention_runs` (when, how many, under which rule). A pass stopped midway loses nothing: the
 * next one finds what is left.
 */
import type { RetentionSettings } from "../config.ts";
import type { Sql } from "../db/connect.ts";
import { type KindRule, type RetentionKind, retentionRules } from "./policy.ts";
import type { Cut, RetentionStep } from "./sql/fragments.ts";
import {
  BODY_STEPS,
  PAYMENT_FILE_STEPS,
  PAYMENT_ROW_STEPS,
  REPLY_STEPS,
  SIGN_IN_STEPS,
} from "./sql/records.ts";
import { REPRESENTATIVE_STEPS } from "./sql/representatives.ts";
import { recordRetentionRun } from "./sql/runs.ts";
import { SOLE_PROPRIETOR_STEPS } from "./sql/sole-proprietors.ts";

const STEPS: Record<RetentionKind, readonly RetentionStep[]> = {
  representatives: REPRESENTATIVE_STEPS,
  sole_proprietors: SOLE_PROPRIETOR_STEPS,
  change_bodies: BODY_STEPS,
  payment_rows: PAYMENT_ROW_STEPS,
  payment_files: PAYMENT_FILE_STEPS,
  alert_replies: REPLY_STEPS,
  sign_ins: SIGN_IN_STEPS,
};

/** One kind's outcome: rows (values, for a pseudonymising kind) it would change or changed. */
export interface KindOutcome extends KindRule {
  count: number;
  batches: number;
}

export interface RetentionPass {
  /** The day the pass ran on (REGWATCH_TZ) and the marker's day. */
  today: string;
  dryRun: boolean;
  kinds: KindOutcome[];
}

export interface PassOptions {
  settings: RetentionSettings;
  today: string;
  tz: string;
  dryRun: boolean;
  trigger: "cli" | "schedule";
  /** Checked between batches: a stop ends the pass after the batch in flight. */
  signal?: AbortSignal;
}

export async function runRetentionPass(sql: Sql, options: PassOptions): Promise<RetentionPass> {
  const kinds: KindOutcome[] = [];
  for (const rule of retentionRules(options.settings, options.today)) {
    const cut: Cut = { before: rule.before, today: options.today, tz: options.tz };
    const outcome = { ...rule, count: 0, batches: 0 };
    for (const step of STEPS[rule.kind]) {
      if (options.dryRun) {
        outcome.count += await step.count(sql, cut);
        continue;
      }
      for (;;) {
        options.signal?.throwIfAborted();
        const changed = await step.batch(sql, cut, options.settings.batch);
        if (changed === 0) break;
        outcome.count += changed;
        outcome.batches += 1;
        if (changed < options.settings.batch) break;
      }
    }
    if (!options.dryRun) {
      await recordRetentionRun(sql, {
        kind: rule.kind,
        action: rule.action,
        count: outcome.count,
        batches: outcome.batches,
        policy: rule.policy,
        trigger: options.trigger,
      });
    }
    kinds.push(outcome);
  }
  return { today: options.today, dryRun: options.dryRun, kinds };
}
