/**
 * What both daemons (one account, or a fleet) share about their life: the stop signal, the list
 * of things to close in reverse order of opening, and a cleanup bounded by the stop's deadline.
 */
import { coerceError, EXIT, type ExitCode } from "../errors.ts";
import type { Logger } from "../logger.ts";

/** Resolves on the first SIGTERM or SIGINT; a second one ends the process at once. */
export function waitForStopSignal(log: Logger): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    let received = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (received) {
        log.warn({ signal }, "second stop signal: exiting without waiting");
        process.exit(EXIT.failed);
      }
      received = true;
      resolve(signal);
    };
    process.on("SIGTERM", onSignal);
    process.on("SIGINT", onSignal);
  });
}

/** Things to close, each named for the log; closed newest first, a failure logged and passed over. */
export class Cleanups {
  private readonly items: Array<[string, () => Promise<unknown> | unknown]> = [];

  constructor(private readonly log: Logger) {}

  push(what: string, close: () => Promise<unknown> | unknown): void {
    this.items.push([what, close]);
  }

  async run(): Promise<void> {
    for (const [what, close] of this.items.splice(0).reverse()) {
      await Promise.resolve()
        .then(close)
        .catch((error) => this.log.warn({ what, err: coerceError(error).message }, "closing failed"));
    }
  }

  /**
   * Closes everything, but gives up at `deadline` (at least a second from now): with the database
   * gone, closing its clients can wait on connections that never answer. False when it gave up.
   */
  async runWithin(deadline: number): Promise<boolean> {
    const cleaned = await Promise.race([
      this.run().then(() => true),
      new Promise<boolean>((r) => setTimeout(() => r(false), Math.max(1000, deadline - Date.now())).unref()),
    ]);
    if (!cleaned)
      this.log.error("closing connections did not finish within the stop timeout; exiting without them");
    return cleaned;
  }
}

/**
 * The end of a stop: everything closed within the stop's deadline, the outcome logged, and the
 * exit status (1 when work or cleanup outlived the bound). The process ends a second later at the
 * latest, whatever is still open: a driver's reconnect timer left from a database outage (its
 * backoff reaches 20 s) must not hold a stopped daemon past --stop-timeout; what held it is logged.
 */
export async function finishStop(
  log: Logger,
  cleanups: Cleanups,
  deadline: number,
  clean: boolean,
): Promise<ExitCode> {
  // The stop's bound covers the cleanup too, and what is left goes with the process.
  const closed = await cleanups.runWithin(deadline);
  const ok = clean && closed;
  log.info({ clean: ok }, "stopped");
  const code = ok ? EXIT.ok : EXIT.failed;
  setTimeout(() => {
    log.warn({ open: process.getActiveResourcesInfo() }, "exiting: still open a second after the stop");
    process.exit(code);
  }, 1000).unref();
  return code;
}

/** node-cron writes warnings (missed executions, overlaps) to the console unless given a logger. */
export function cronLogger(log: Logger) {
  const fields = { component: "node-cron" };
  return {
    info: (message: string) => log.info(fields, message),
    warn: (message: string) => log.warn(fields, message),
    error: (message: string | Error, err?: Error) =>
      log.error({ ...fields, err: coerceError(err ?? message).message }, String(message)),
    debug: (message: string | Error) => log.debug(fields, String(message)),
  };
}
