/**
 * What a delivery pass does with an error of regwatch's own (a send that throws, a body that
 * cannot be built, the database failing while it holds messages), so that no message waits at 0
 * attempts forever: each message it held is charged a failed attempt with the error and goes dead
 * by the retry policy like any other failure, and the pass is recorded as failed in
 * alert_delivery_health, where status, doctor, the console and /metrics read it.
 */

import type { Sql } from "../db/connect.ts";
import { coerceError } from "../errors.ts";
import type { Logger } from "../logger.ts";
import { redactSecrets } from "../secrets.ts";
import { retryPolicy } from "./delivery-settings.ts";
import type { DeliveryReport, Pass } from "./pass.ts";
import { nextState } from "./retry-policy.ts";
import { recordPassFailure, recordPassSuccess } from "./sql/delivery-health.ts";
import { type DeliveryRow, type Runner, recordAttempt } from "./sql/outbox.ts";

/** Longest error text kept: a stack-sized message says nothing more in a status line. */
const ERROR_CHARS = 1000;

/** An error as an operator reads it: its kind when it names one (TypeError: …), secrets scrubbed. */
export function describeThrown(thrown: unknown): string {
  const error = coerceError(thrown);
  const named = error.name && error.name !== "Error" && !error.message.startsWith(error.name);
  const text = named ? `${error.name}: ${error.message}` : error.message;
  return redactSecrets(text || error.name || "unknown error").slice(0, ERROR_CHARS);
}

/**
 * Records a failed attempt of a message the pass holds, as a retry by the policy (dead once its
 * attempts or its age run out), and notes the error as the pass's. `sql` may be the claim's
 * transaction. A lease already lost to another deliverer records nothing: its record wins.
 */
export async function chargeAttempt(
  sql: Runner,
  pass: Pass,
  row: DeliveryRow,
  error: string,
  at = pass.now(),
): Promise<void> {
  const { deps, report } = pass;
  report.error ??= error;
  const attempts = row.attempts + 1;
  const policy = retryPolicy(deps.config);
  const next = nextState(
    { kind: "retry", error },
    attempts,
    policy,
    at,
    deps.random ?? Math.random,
    row.createdAt,
  );
  const text = redactSecrets(next.reason ? `${error} (${next.reason})` : error);
  const recorded = await recordAttempt(sql, row.id, pass.token, {
    status: next.status,
    nextAttemptAt: next.nextAttemptAt,
    at,
    httpStatus: null,
    reply: null,
    error: text,
  });
  pass.held.delete(row.id);
  if (!recorded) return;
  report.attempted++;
  report.unexpected++;
  if (next.status === "dead") report.dead++;
  else report.retrying++;
  deps.log.error(
    {
      delivery: row.id,
      messageId: row.messageId,
      rule: row.ruleName,
      channel: row.channel,
      attempts,
      err: text,
    },
    next.status === "dead"
      ? "alert message dead: an error of regwatch's own on its last attempt"
      : "alert message not sent: an error of regwatch's own, charged as a failed attempt; will retry",
  );
}

/** After the pass failed: each message it still holds is charged, while the database lets it. */
export async function chargeHeld(pass: Pass, error: string): Promise<void> {
  for (const row of [...pass.held.values()]) await chargeAttempt(pass.deps.sql, pass, row, error);
}

/**
 * Writes how the pass fared: failed when it had an error of its own, else (when it attempted a
 * message, or the last failure held none) the end of a streak. Never throws: a database that is
 * gone is logged, and the pass's own error is what its caller reports.
 */
export async function recordPassOutcome(
  deps: { sql: Sql; log: Logger },
  report: DeliveryReport,
): Promise<void> {
  try {
    if (report.error !== undefined) await recordPassFailure(deps.sql, report.error, report.unexpected);
    else await recordPassSuccess(deps.sql, report.attempted > 0);
  } catch (thrown) {
    deps.log.warn(
      { err: describeThrown(thrown) },
      "how the alert delivery pass fared could not be recorded (the database may be unavailable)",
    );
  }
}
