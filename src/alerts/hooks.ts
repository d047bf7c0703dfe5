/**
 * Where alerting joins the rest of regwatch. A run only raises its alerts and queues their
 * messages (under its lock, in its own transactions: fast, database only); sending happens after
 * the lock is released: one bounded pass after a command-line run, and the daemon's deliverer loop.
 * No alerting problem fails a run or stops the daemon: the outbox keeps the work for the next pass.
 */
import { coerceError } from "../errors.ts";
import { redactSecrets } from "../secrets.ts";
import { type DeliverDeps, type DeliveryReport, deliverAlerts, targetGates } from "./deliver.ts";

/** Raise (and deliver unless `raiseOnly`); failures are logged, the outbox keeps the work. */
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
  const stopping = new AbortController();
  const gates = deps.gates ?? targetGates(deps.config, deps.now ?? (() => new Date()));
  let running: Promise<unknown> | undefined;
  const tick = () => {
    if (running || stopping.signal.aborted) return;
    running = alertsAfterRun({ ...deps, gates, signal: stopping.signal }).finally(() => {
      running = undefined;
    });
  };
  const timer = setInterval(tick, everyMs);
  timer.unref();
  tick();
  return async () => {
    clearInterval(timer);
    stopping.abort();
    await running;
  };
}
