/**
 * `regwatch worker`: runs the fleet's queued jobs (sync, backfill, reconcile, deliver of every
 * account in REGWATCH_ACCOUNTS_FILE) until SIGTERM/SIGINT, then stops cleanly (see fleet/worker.ts).
 */
import type { Command } from "commander";
import { accountKeys, loadAccounts } from "../accounts.ts";
import { secretsOf } from "../config.ts";
import { waitForStopSignal } from "../daemon/lifecycle.ts";
import { ConfigError, EXIT } from "../errors.ts";
import { startWorker, WORKER_DEFAULTS } from "../fleet/worker.ts";
import { createLogger } from "../logger.ts";
import { parsePositiveInt } from "./arg-parsers.ts";
import { runAction } from "./context.ts";

interface WorkerCliOptions {
  concurrency: number;
  stopTimeout: number;
}

export function registerWorker(program: Command): void {
  program
    .command("worker")
    .description(
      "run the fleet's queued jobs (sync, backfill, reconcile, deliver) for every account until stopped",
    )
    .option(
      "--concurrency <n>",
      "jobs run at once at most (never two of one account)",
      parsePositiveInt,
      WORKER_DEFAULTS.concurrency,
    )
    .option(
      "--stop-timeout <seconds>",
      "on SIGTERM/SIGINT, how long running jobs may take to commit before they are released to other workers",
      parsePositiveInt,
      WORKER_DEFAULTS.stopTimeoutSeconds,
    )
    .addHelpText(
      "after",
      [
        "",
        "Needs REGWATCH_ACCOUNTS_FILE. Logs are JSON lines on stdout. Add jobs with `regwatch enqueue`.",
        "A job that fails is tried again with a growing delay, REGWATCH_JOB_MAX_ATTEMPTS tries in all;",
        "a worker silent for REGWATCH_JOB_LEASE_S seconds is taken for dead and its jobs go to the others.",
        "",
        "Exit: 0 after a clean stop, 1 when running jobs outlived --stop-timeout or the queue failed, 78 no accounts file.",
      ].join("\n"),
    )
    .action((opts: WorkerCliOptions) =>
      runAction(async ({ config }) => {
        const accounts = loadAccounts(config);
        if (!accounts)
          throw new ConfigError([
            "REGWATCH_ACCOUNTS_FILE: required by `regwatch worker` (it runs the jobs of the accounts it lists)",
          ]);
        const log = createLogger({
          level: config.logLevel,
          secrets: [...secretsOf(config), ...accountKeys(accounts)],
          fd: 1,
        });
        const signalled = waitForStopSignal(log);
        const worker = await startWorker({ config, log, accounts, concurrency: opts.concurrency });
        let clean = true;
        const stopped = worker.done.catch((error) => {
          clean = false;
          log.error({ err: String(error) }, "the queue runner failed");
        });
        const signal = await Promise.race([signalled, stopped.then(() => undefined)]);
        if (signal) {
          log.info({ signal }, "stop signal received");
          if (!(await worker.stop(opts.stopTimeout * 1000))) clean = false;
        }
        // A request abandoned by the stop may hold a socket open: the process ends anyway.
        const code = clean ? EXIT.ok : EXIT.failed;
        setTimeout(() => process.exit(code), 1000).unref();
        return code;
      }),
    );
}
