/**
 * `regwatch daemon`: migrate, serve health and metrics, run reconcile and sync on the schedule,
 * catch up a missed run at start and whenever a check finds one due, and stop cleanly on
 * SIGTERM/SIGINT.
 */
import { setMaxListeners } from "node:events";
import type { ScheduledTask } from "node-cron";
import { startAlertTicker } from "../alerts/hooks.ts";
import { registerAlertMetrics } from "../alerts/metrics.ts";
import { type Config, requireWatch } from "../config.ts";
import { nodeCron } from "../cron.ts";
import { type Database, openDatabase } from "../db/connect.ts";
import { runMigrations } from "../db/migrate.ts";
import type { ExitCode } from "../errors.ts";
import type { Logger } from "../logger.ts";
import { startRetentionTicker } from "../retention/daily.ts";
import { openRegistry } from "../run/open-registry.ts";
import { DatabaseProbe, startHealthServer } from "./http-server.ts";
import { JobRunner } from "./job.ts";
import { Cleanups, cronLogger, finishStop, waitForStopSignal } from "./lifecycle.ts";
import { DaemonMetrics } from "./metrics.ts";
import { cronSchedule } from "./schedule.ts";

export interface DaemonOptions {
  /** Seconds between checks for a run that is due (missed, skipped for the lock, or failed). */
  checkEverySeconds: number;
  /** Seconds a stop waits for in-flight work to commit before giving up on it. */
  stopTimeoutSeconds: number;
  /** A job with no progress for this long makes /readyz answer 503. */
  stuckAfterSeconds: number;
  /**
   * `daemon --web`: starts the web console on the daemon's database; what it returns is closed
   * with the daemon, before the database. Passed in by the command, so daemon/ needs no web/.
   */
  serveConsole?: (db: Database) => Promise<{ close(): Promise<void> }>;
}

export const DAEMON_DEFAULTS: DaemonOptions = {
  checkEverySeconds: 60,
  stopTimeoutSeconds: 30,
  stuckAfterSeconds: 600,
};

export async function runDaemon(config: Config, log: Logger, options: DaemonOptions): Promise<ExitCode> {
  requireWatch(config);
  const stopRequested = waitForStopSignal(log);
  const db = await openDatabase(config);
  const cleanups = new Cleanups(log);
  cleanups.push("database", () => db.close());
  try {
    const { applied } = await runMigrations(db.url, db.schema, { registryTz: config.registryTz });
    log.info({ applied, database: db.origin }, "migrations applied");

    // Aborted when a stop begins: every request, pause and backoff in flight ends at once.
    const stopping = new AbortController();
    setMaxListeners(0, stopping.signal); // every request in flight listens to it
    let metrics: DaemonMetrics | undefined;
    const registry = openRegistry(config, log, db.sql, {
      signal: stopping.signal,
      onRequest: (r) => metrics?.recordRequest(r),
    });
    cleanups.push("registry clients", () => registry.close());
    const probe = new DatabaseProbe(db.url, db.schema);
    cleanups.push("probe connection", () => probe.close());
    metrics = new DaemonMetrics({
      probe: async () => probe.sql,
      registryTz: config.registryTz,
      limiters: () => registry.clients.limiters,
    });
    registerAlertMetrics(metrics.registry, async () => probe.sql);
    let runner: JobRunner | undefined;
    const http = await startHealthServer({
      port: config.httpPort,
      host: config.httpHost,
      probe,
      metrics,
      log,
      jobNotReady: () => runner?.notReadyReason(options.stuckAfterSeconds * 1000) ?? null,
    });
    cleanups.push("http server", () => http.close());
    if (options.serveConsole) {
      const web = await options.serveConsole(db);
      cleanups.push("web console", () => web.close());
    }
    log.info(
      { port: http.port, host: config.httpHost },
      `health and metrics on http://${config.httpHost}:${http.port} (/healthz /readyz /metrics)`,
    );

    const task: ScheduledTask = nodeCron().createTask(config.schedule, () => runner?.runIfDue("schedule"), {
      name: "regwatch-reconcile-sync",
      timezone: config.tz,
      noOverlap: true,
      logger: cronLogger(log),
    });
    cleanups.push("schedule", () => task.destroy());
    runner = new JobRunner({
      db,
      config,
      log,
      registry,
      metrics,
      schedule: cronSchedule(config.schedule, config.tz, (instant) => task.match(instant)),
      nextRun: () => task.getNextRun(),
    });
    await task.start();
    log.info(
      { schedule: config.schedule, timeZone: config.tz, next: task.getNextRun() },
      "daemon started; checking for a missed run",
    );

    const jobs = runner;
    const check = () => {
      if (!jobs.busy) void jobs.runIfDue("catchup");
    };
    check();
    const checker = setInterval(check, options.checkEverySeconds * 1000);
    cleanups.push("catch-up checks", () => clearInterval(checker));
    const stopAlerts = startAlertTicker(
      { sql: db.sql, config, log },
      Math.min(60, options.checkEverySeconds) * 1000,
    );
    cleanups.push("alert deliveries", stopAlerts);
    // Once a day of REGWATCH_TZ; checked at most every five minutes.
    const stopRetention = startRetentionTicker(
      { schemas: [{ schema: db.schema, sql: db.sql }], config, log },
      Math.min(300, options.checkEverySeconds) * 1000,
    );
    cleanups.push("retention", stopRetention);

    const signal = await stopRequested;
    const stopDeadline = Date.now() + options.stopTimeoutSeconds * 1000;
    http.markStopping();
    log.info({ signal }, "stopping: no new runs; work in flight commits");
    stopping.abort();
    await task.stop();
    clearInterval(checker);
    const clean = await jobs.stop(options.stopTimeoutSeconds * 1000);
    if (!clean) {
      log.error(
        { boundSeconds: options.stopTimeoutSeconds },
        "work in flight did not finish in time; its run stays 'running' and is marked failed at the next start",
      );
    }
    return await finishStop(log, cleanups, stopDeadline, clean);
  } catch (error) {
    await cleanups.run();
    throw error;
  }
}
