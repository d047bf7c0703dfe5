import type { Command } from "commander";
import { secretsOf } from "../config.ts";
import { DAEMON_DEFAULTS, runDaemon } from "../daemon/daemon.ts";
import { createLogger } from "../logger.ts";
import { parsePositiveInt, runAction } from "./context.ts";

interface DaemonCliOptions {
  web?: boolean;
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
    .addHelpText(
      "after",
      [
        "",
        "Logs are JSON lines on stdout. HTTP on REGWATCH_HTTP_PORT (0 = any free port, logged).",
        "A run is due when the schedule (REGWATCH_SCHEDULE in REGWATCH_TZ) has fired since the last",
        "scheduled or catch-up sync that ended ok or partial. Every run takes the run lock; a run that",
        "finds it held is skipped and tried again at the next check.",
        "",
        "Exit: 0 after a clean stop, 1 when work in flight outlived --stop-timeout or start-up failed.",
      ].join("\n"),
    )
    .action((opts: DaemonCliOptions) =>
      runAction(({ config }) => {
        const log = createLogger({ level: config.logLevel, secrets: secretsOf(config), fd: 1 });
        return runDaemon(config, log, {
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
        });
      }),
    );
}
