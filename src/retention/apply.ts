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
      const done = await applyStep(sql, step, cut, options);
      outcome.count += done.count;
      outcome.batches += done.batches;
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

/** Pages one batch reads at most (8 MB of 8 kB pages): a batch's cost stays bounded on any table. */
const PAGES_PER_BATCH = 1000;

/**
 * A step over its table in the table's physical order, a range of pages at a time: at most
 * `batch` rows per statement, each committed; a range with more goes on after its last row.
 */
async function applyStep(
  sql: Sql,
  step: RetentionStep,
  cut: Cut,
  options: PassOptions,
): Promise<{ count: number; batches: number }> {
  const limit = options.settings.batch;
  const pages = await step.pages(sql);
  let count = 0;
  let batches = 0;
  for (let page = 0; page <= pages; page += PAGES_PER_BATCH) {
    const before = `(${page + PAGES_PER_BATCH},0)`;
    let after = `(${page},0)`;
    for (;;) {
      options.signal?.throwIfAborted();
      const batch = await step.batch(sql, cut, limit, { after, before });
      if (batch.picked === 0) break;
      count += batch.changed;
      batches += 1;
      if (batch.picked < limit || batch.last === null) break;
      after = batch.last;
    }
  }
  return { count, batches };
}
