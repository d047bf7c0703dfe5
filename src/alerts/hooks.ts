/**
 * Where alerting joins the rest of regwatch. A run only raises its alerts and queues their
 * messages (under its lock, in its own transactions: fast, database only); sending happens after
 * the lock is released: one bounded pass after a command-line run, and the daemon's deliverer loop.
 * No alerting problem fails a run or stops the daemon: the outbox keeps the work for the next pass,
 * the messages a failing pass held are charged an attempt, and the failure is recorded where
 * `status`, `doctor`, the console and /metrics show it.
 */

import { startTicker } from "../ticker.ts";
import {
  type DeliverDeps,
  type DeliveryReport,
  deliverAlerts,
  emptyDeliveryReport,
  targetGates,
} from "./deliver.ts";
import { describeThrown } from "./pass-failures.ts";

/**
 * Raise (and deliver unless `raiseOnly`). A pass that failed is logged and its report carries the
 * error (`error`); one that could not go on at all reports only that.
 */
export async function alertsAfterRun(
  deps: DeliverDeps,
  options: { raiseOnly?: boolean } = {},
): Promise<DeliveryReport> {
  try {
    const report = await deliverAlerts(deps, options);
    if (report.error !== undefined)
      deps.log.error(
        { err: report.error, charged: report.unexpected },
        "alert delivery pass failed: the messages it concerned were charged a failed attempt; `regwatch status` shows it",
      );
    return report;
  } catch (error) {
    const report = { ...emptyDeliveryReport(), error: `the delivery pass failed: ${describeThrown(error)}` };
    deps.log.error(
      { err: report.error },
      "alert delivery pass failed; what it held is charged where the database allows, the next pass retries",
    );
    return report;
  }
}

/**
 * One delivery pass after a command-line run, once its lock is released: no new batch is claimed
 * after `boundMs`, and every send in flight ends within the request timeout, so a receiver that
 * hangs delays the command's exit by at most that much and never blocks another run.
 */
export function deliverAfterRun(deps: DeliverDeps, boundMs = afterRunBoundMs(deps)) {
  return alertsAfterRun({ ...deps, deadline: Date.now() + boundMs });
}

export function afterRunBoundMs(deps: Pick<DeliverDeps, "config">): number {
  return Math.max(30_000, 2 * deps.config.requestTimeoutMs);
}

/**
 * The daemon's deliverer: a pass every `everyMs` (never two at once), with one set of receiver
 * limits and breakers for its whole life. The stop function ends claiming at once and waits for
 * the sends in flight, each bounded by the request timeout.
 */
export function startAlertTicker(deps: DeliverDeps, everyMs: number): () => Promise<void> {
  const gates = deps.gates ?? targetGates(deps.config, deps.now ?? (() => new Date()));
  return startTicker((signal) => alertsAfterRun({ ...deps, gates, signal }), everyMs);
}
