/**
 * Where alerting joins the rest of regwatch: once after every sync or backfill run has committed,
 * and on every daemon tick. Both raise what is unscanned and deliver what is due; neither lets an
 * alerting problem fail the run or stop the daemon (the outbox keeps everything for the next pass).
 */
import { coerceError } from "../errors.ts";
import { redactSecrets } from "../secrets.ts";
import { type DeliverDeps, type DeliveryReport, deliverAlerts } from "./deliver.ts";

/** Raise and deliver after a run; failures are logged, the outbox keeps the work. */
export async function alertsAfterRun(
  deps: DeliverDeps,
  options: { raiseOnly?: boolean } = {},
): Promise<DeliveryReport | undefined> {
  try {
    return await deliverAlerts(deps, options);
  } catch (error) {
    deps.log.error(
      { err: redactSecrets(coerceError(error).message) },
      "alert delivery pass failed; the next pass retries",
    );
    return undefined;
  }
}

/** Runs a delivery pass every `everyMs` (never two at once); returns a stop function that waits for the pass in flight. */
export function startAlertTicker(deps: DeliverDeps, everyMs: number): () => Promise<void> {
  let running: Promise<unknown> | undefined;
  const tick = () => {
    if (running) return;
    running = alertsAfterRun(deps).finally(() => {
      running = undefined;
    });
  };
  const timer = setInterval(tick, everyMs);
  timer.unref();
  tick();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
