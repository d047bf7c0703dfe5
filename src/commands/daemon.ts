import type { Command } from "commander";
import { accountKeys, loadAccounts } from "../accounts.ts";
import { secretsOf } from "../config.ts";
import { DAEMON_DEFAULTS, type DaemonOptions, runDaemon } from "../daemon/daemon.ts";
import { runFleetDaemon } from "../daemon/fleet-daemon.ts";
import { UsageError } from "../errors.ts";
import { createLogger } from "../logger.ts";
import { parsePositiveInt } from "./arg-parsers.ts";
import { runAction } from "./context.ts";

interface DaemonCliOptions {
  web?: boolean;
  /** Undefined unless --worker or --no-worker is given. */
  worker?: boolean;
  concurrency?: number;
  checkEvery: number;
  stopTimeout: number;
  stuckAfter: number;
}

export function registerDaemon(program: Command): void {
  program
    .command("daemon")
    .description(
      "run reconcile and sync on REGWATCH_SCHEDULE, catch up missed runs, serve /healthz /readyz /metrics",
    )
    .option(
      "--check-every <seconds>",
      "how often to check for a run that is due (missed, skipped for the lock, or failed)",
      parsePositiveInt,
      DAEMON_DEFAULTS.checkEverySeconds,
    )
    .option(
      "--stop-timeout <seconds>",
      "on SIGTERM/SIGINT, how long in-flight work may take to commit before the daemon exits anyway",
      parsePositiveInt,
      DAEMON_DEFAULTS.stopTimeoutSeconds,
    )
    .option(
      "--stuck-after <seconds>",
      "/readyz answers 503 while a run has shown no progress (no request, window or file) for this long",
      parsePositiveInt,
      DAEMON_DEFAULTS.stuckAfterSeconds,
    )
    .option("--web", "also serve the web console (REGWATCH_WEB_HOST:REGWATCH_WEB_PORT) from this process")
    .option("--worker", "with REGWATCH_ACCOUNTS_FILE: also run queued jobs in this process (the default)")
    .option(
      "--no-worker",
      "with REGWATCH_ACCOUNTS_FILE: only schedule jobs; `regwatch worker` processes run them",
    )
    .option(
      "--concurrency <n>",
      "with the in-process worker: jobs run at once (of different accounts)",
      parsePositiveInt,
    )
    .addHelpText(
      "after",
      [
        "",
        "Logs are JSON lines on stdout. HTTP on REGWATCH_HTTP_PORT (0 = any free port, logged).",
        "A run is due when the schedule (REGWATCH_SCHEDULE in REGWATCH_TZ) has fired since the last",
        "scheduled or catch-up sync that ended ok or partial. Every run takes the run lock; a run that",
        "finds it held is skipped and tried again at the next check.",
        "",
        "With REGWATCH_ACCOUNTS_FILE (a fleet): each account's schedule (its own, else REGWATCH_SCHEDULE",
        "in REGWATCH_TZ) asks the job queue for its sync job of the slot's local day, a missed slot at",
        "once; deliveries are asked for when an account has alert messages due. The process runs the",
        "jobs too unless --no-worker (then run `regwatch worker` somewhere). Metrics carry `account`.",
        "",
        "Exit: 0 after a clean stop, 1 when work in flight outlived --stop-timeout or start-up failed.",
      ].join("\n"),
    )
    .action((opts: DaemonCliOptions) =>
      runAction(({ config }) => {
        const accounts = loadAccounts(config);
        // In a fleet the process may hold every account's keys (its worker runs their jobs).
        const keys = accountKeys(accounts ?? []);
        const log = createLogger({ level: config.logLevel, secrets: [...secretsOf(config), ...keys], fd: 1 });
        if (!accounts && (opts.worker !== undefined || opts.concurrency !== undefined))
          throw new UsageError(
            "--worker, --no-worker and --concurrency need REGWATCH_ACCOUNTS_FILE: without it the daemon runs its one account's job itself",
          );
        const common: DaemonOptions = {
          checkEverySeconds: opts.checkEvery,
          stopTimeoutSeconds: opts.stopTimeout,
          stuckAfterSeconds: opts.stuckAfter,
          serveConsole: opts.web
            ? async (db) => {
                const { startConsole } = await import("../web/server.ts");
                const running = await startConsole(
                  { db, config, log, now: () => new Date() },
                  { host: config.webHost, port: config.webPort },
                );
                log.info({ url: running.url }, `web console on ${running.url}`);
                return running;
              }
            : undefined,
        };
        if (accounts)
          return runFleetDaemon(config, accounts, log, {
            ...common,
            worker: opts.worker ?? true,
            concurrency: opts.concurrency,
          });
        return runDaemon(config, log, common);
      }),
    );
}
