/**
 * One delivery pass over the outbox: reopen ended snoozes, raise the alerts of every run not yet
 * scanned, then deliver what is due, batch by batch (claim.ts: each batch is leased in one short
 * transaction that commits before anything is sent, so no receiver, however slow, holds a
 * transaction or the run lock open). Each outcome is then recorded on its own under the claim's
 * token. A deliverer that dies after sending leaves the lease to run out: the message is sent
 * again with its id and frozen body. Messages go oldest change first, and one about a business
 * waits while an older one to the same receiver about it is pending; up to N go to one receiver
 * at once (see target-gate.ts). Every send has one overall deadline inside its lease (the lease
 * less a margin, and at most the request timeout): a transfer still going then is aborted and
 * counted as a failed attempt, so no message is still being sent by one deliverer when its lease
 * lets another take it. An error of regwatch's own is never only logged: the messages it touched
 * are charged an attempt and the pass is recorded as failed (pass-failures.ts).
 */
import { randomUUID } from "node:crypto";
import { localDateTime } from "../dates.ts";
import type { Sql } from "../db/connect.ts";
import type { Logger } from "../logger.ts";
import { batchClaimer } from "./claim.ts";
import { deliverOne } from "./deliver-one.ts";
import { type AlertConfig, targetGates } from "./delivery-settings.ts";
import { mailerOnDemand } from "./email.ts";
import { type Claimed, type DeliveryReport, emptyDeliveryReport, type Pass } from "./pass.ts";
import { chargeAttempt, chargeHeld, describeThrown, recordPassOutcome } from "./pass-failures.ts";
import { reopenSnoozed } from "./sql/lifecycle.ts";
import { OUTBOX_START, type OutboxPlace } from "./sql/outbox.ts";
import { scanRun, unscannedRuns } from "./sql/raise.ts";
import type { TargetGates } from "./target-gate.ts";

export { blockedReason } from "./deliver-one.ts";
export type { AlertConfig } from "./delivery-settings.ts";
export { retryPolicy, targetGates } from "./delivery-settings.ts";
export { type DeliveryReport, emptyDeliveryReport } from "./pass.ts";

/** Messages claimed per transaction. */
export const BATCH_SIZE = 32;

export interface DeliverDeps {
  sql: Sql;
  config: AlertConfig;
  log: Logger;
  now?: () => Date;
  random?: () => number;
  /** The receivers' limits and breakers; a long-lived deliverer keeps one across passes. */
  gates?: TargetGates;
  /** No new batch is claimed once this is aborted (sends in flight end within the request timeout). */
  signal?: AbortSignal;
  /** Wall-clock instant after which no new batch is claimed: a bounded pass. */
  deadline?: number;
}

/** Raises alerts for every finished run not scanned yet; returns how many were raised. */
export async function raisePendingAlerts(deps: Pick<DeliverDeps, "sql" | "log">): Promise<number> {
  let raised = 0;
  for (const runId of await unscannedRuns(deps.sql)) {
    const result = await scanRun(deps.sql, runId);
    for (const r of result?.raised ?? []) {
      raised += r.count;
      deps.log.info({ runId, rule: r.rule, alerts: r.count }, "alerts raised");
    }
  }
  return raised;
}

/**
 * One pass. Its report says what it did and, in `error`, the first error of its own (a send that
 * threw, a body not built, alerts not raised): the messages concerned were charged an attempt and
 * the rest were delivered. A pass that cannot go on (the database failing while it claims or
 * records) charges what it holds where the database still lets it, records the failure, and throws.
 */
export async function deliverAlerts(
  deps: DeliverDeps,
  options: { ignoreBackoff?: boolean; raiseOnly?: boolean } = {},
): Promise<DeliveryReport> {
  const now = deps.now ?? (() => new Date());
  const report = emptyDeliveryReport();
  let pass: Pass | undefined;
  try {
    try {
      report.reopened = await reopenSnoozed(deps.sql, localDateTime(now(), deps.config.tz).date, now());
      report.raised = await raisePendingAlerts(deps);
    } catch (thrown) {
      // What is queued already is still sent; the runs not scanned wait for the next pass.
      report.error = `alerts could not be raised: ${describeThrown(thrown)}`;
    }
    if (options.raiseOnly) return report;
    const { config } = deps;
    pass = {
      deps,
      now,
      token: randomUUID(),
      gates: deps.gates ?? targetGates(config, now, !options.ignoreBackoff),
      mailer:
        config.smtpUrl && config.mailFrom
          ? mailerOnDemand({
              smtpUrl: config.smtpUrl,
              from: config.mailFrom,
              timeoutMs: config.requestTimeoutMs,
            })
          : undefined,
      report,
      held: new Map(),
    };
    await deliverDue(pass, Boolean(options.ignoreBackoff));
    return report;
  } catch (thrown) {
    const error = describeThrown(thrown);
    report.error ??= `the delivery pass failed: ${error}`;
    // Best effort: when the database itself is what failed, the leases run out as for a crash.
    if (pass)
      await chargeHeld(pass, `the delivery pass failed while it held the message: ${error}`).catch(() => {});
    throw thrown;
  } finally {
    pass?.mailer?.close();
    await recordPassOutcome(deps, report);
  }
}

/** Claims and sends due messages, batch by batch, until none is left or the pass must stop. */
async function deliverDue(pass: Pass, ignoreBackoff: boolean): Promise<void> {
  const { deps, report } = pass;
  const { config } = deps;
  // A claimed message may wait for its receiver's free slots behind the rest of the batch.
  const leaseMs = config.requestTimeoutMs * (Math.ceil(BATCH_SIZE / config.alertTargetConcurrency) + 2);
  const claim = batchClaimer(pass, {
    ignoreBackoff,
    limit: BATCH_SIZE,
    leaseMs,
    marginMs: sendMarginMs(leaseMs),
  });
  const stopped = () =>
    Boolean(deps.signal?.aborted) || (deps.deadline !== undefined && Date.now() >= deps.deadline);
  let after: OutboxPlace = OUTBOX_START;
  while (!stopped()) {
    const batch = await claim(after);
    if (batch.last === undefined) break;
    after = batch.last;
    await settle(pass, batch.claimed);
    // A message that waited for an older one of the same batch goes once that one is settled.
    let waiting = batch.waitingIds;
    while (waiting.length > 0 && !stopped()) {
      const again = await claim(OUTBOX_START, waiting);
      if (again.claimed.length === 0) break;
      await settle(pass, again.claimed);
      waiting = again.waitingIds;
    }
    report.deferred += waiting.length;
  }
}

/**
 * Time kept between a send's deadline and its lease's end: the outcome is recorded in it (and an
 * aborted transfer closed). A tenth of the lease, at least 1 s, and never more than a third.
 */
export function sendMarginMs(leaseMs: number): number {
  return Math.min(Math.max(1000, leaseMs / 10), leaseMs / 3);
}

/**
 * Sends a claimed batch. A message whose handling threw before its outcome was recorded is
 * charged a failed attempt with that error; when even that cannot be recorded (the database is
 * failing) the pass ends, once every send is done.
 */
async function settle(pass: Pass, claimed: Claimed[]): Promise<void> {
  const settled = await Promise.allSettled(claimed.map((c) => deliverOne(pass, c)));
  for (const [i, s] of settled.entries()) {
    if (s.status === "fulfilled") continue;
    const error = `delivering the message failed inside regwatch: ${describeThrown(s.reason)}`;
    const { row } = claimed[i]!;
    if (pass.held.has(row.id)) await chargeAttempt(pass.deps.sql, pass, row, error);
    else pass.report.error ??= error;
  }
}
