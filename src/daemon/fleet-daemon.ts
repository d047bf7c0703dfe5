/**
 * `regwatch daemon` with an accounts file: migrate the fleet's home and every account's schema,
 * install the queue, serve health and metrics (labelled by account), and ask the queue for each
 * account's daily sync at its own time (catch-up included) and for deliveries when an outbox has
 * messages due. With `--worker` (the default) the same process also runs jobs; `--no-worker`
 * leaves that to `regwatch worker` processes on other machines.
 */
import { type Account, accountConfig } from "../accounts.ts";
import type { Config } from "../config.ts";
import { forSchema, openDatabase } from "../db/connect.ts";
import { runMigrations } from "../db/migrate.ts";
import { ConfigError, coerceError, type ExitCode } from "../errors.ts";
import { enqueue, openQueue } from "../fleet/queue.ts";
import { startWorker, WORKER_DEFAULTS } from "../fleet/worker.ts";
import type { Logger } from "../logger.ts";
import { startRetentionTicker } from "../retention/daily.ts";
import type { DaemonOptions } from "./daemon.ts";
import { registerFleetMetrics } from "./fleet-metrics.ts";
import { accountSchedules } from "./fleet-plan.ts";
import { FleetScheduler } from "./fleet-scheduler.ts";
import { DatabaseProbe, startHealthServer } from "./http-server.ts";
import { Cleanups, finishStop, waitForStopSignal } from "./lifecycle.ts";
import { DaemonMetrics } from "./metrics.ts";

export interface FleetDaemonOptions extends DaemonOptions {
  /** Also run queued jobs in this process (`--worker`, the default with an accounts file). */
  worker: boolean;
  /** Jobs the in-process worker runs at once (different accounts; one account's never overlap). */
  concurrency?: number;
}

export async function runFleetDaemon(
  config: Config,
  accounts: readonly Account[],
  log: Logger,
  options: FleetDaemonOptions,
): Promise<ExitCode> {
  const stopRequested = waitForStopSignal(log);
  if (options.worker) warnMissingKeys(config, accounts, log);
  const db = await openDatabase(config);
  const cleanups = new Cleanups(log);
  cleanups.push("database", () => db.close());
  try {
    for (const schema of [db.schema, ...accounts.map((a) => a.schema)]) {
      const { applied } = await runMigrations(db.url, schema, { registryTz: config.registryTz });
      log.info({ applied, schema, database: db.origin }, "migrations applied");
    }
    const queue = await openQueue(db.url, log);
    cleanups.push("queue", () => queue.release());

    const probe = new DatabaseProbe(db.url, db.schema);
    cleanups.push("probe connection", () => probe.close());
    const metrics = new DaemonMetrics({
      probe: async () => probe.sql,
      registryTz: config.registryTz,
      limiters: () => new Map(),
      accounts: accounts.map((a) => ({ name: a.name, schema: a.schema })),
    });
    registerFleetMetrics(metrics.registry, { probe: async () => probe.sql, accounts, config });
    let stopping = false;
    const http = await startHealthServer({
      port: config.httpPort,
      host: config.httpHost,
      probe,
      metrics,
      log,
      jobNotReady: () => (stopping ? "stopping" : null),
    });
    cleanups.push("http server", () => http.close());
    if (options.serveConsole) {
      const web = await options.serveConsole(db);
      cleanups.push("web console", () => web.close());
    }
    log.info(
      { port: http.port, host: config.httpHost, accounts: accounts.length, worker: options.worker },
      `health and metrics on http://${config.httpHost}:${http.port} (/healthz /readyz /metrics)`,
    );

    const scheduler = new FleetScheduler({
      sql: db.sql,
      accounts: accountSchedules(accounts, config),
      enqueue: (jobs) => enqueue(queue, jobs, { maxAttempts: config.jobMaxAttempts }),
      log,
    });
    cleanups.push("scheduler", () => scheduler.stop());
    // The retention policy once a day in the home (console sign-ins) and every account's schema.
    const stopRetention = startRetentionTicker(
      {
        schemas: [db.schema, ...accounts.map((a) => a.schema)].map((schema) => ({
          schema,
          sql: forSchema(db, schema).sql,
        })),
        config,
        log,
      },
      Math.min(300, options.checkEverySeconds) * 1000,
    );
    cleanups.push("retention", stopRetention);
    await scheduler.start(options.checkEverySeconds * 1000);

    const worker = options.worker
      ? await startWorker({
          config,
          accounts,
          log,
          concurrency: options.concurrency ?? WORKER_DEFAULTS.concurrency,
        })
      : undefined;
    if (worker) {
      cleanups.push("worker", () => worker.stop(0));
      // A runner that fails on its own ends the daemon as a stop would, so a supervisor restarts it.
      worker.done.catch((error) => {
        log.error({ err: coerceError(error).message }, "the in-process worker failed; stopping");
        process.kill(process.pid, "SIGTERM");
      });
    }

    const signal = await stopRequested;
    const stopDeadline = Date.now() + options.stopTimeoutSeconds * 1000;
    stopping = true;
    http.markStopping();
    log.info({ signal }, "stopping: no new jobs asked for or taken; jobs in flight commit");
    await scheduler.stop();
    let clean = true;
    if (worker) {
      // The worker first: its jobs' windows commit, and what it still holds goes back to the queue.
      const finished = await worker.stop(options.stopTimeoutSeconds * 1000).catch((error) => {
        log.error({ err: coerceError(error).message }, "the worker did not stop cleanly");
        return false;
      });
      if (!finished) {
        clean = false;
        log.error(
          { boundSeconds: options.stopTimeoutSeconds },
          "jobs in flight did not finish in time; they were handed back to the queue",
        );
      }
    }
    return await finishStop(log, cleanups, stopDeadline, clean);
  } catch (error) {
    await cleanups.run();
    throw error;
  }
}

/**
 * Names, at start, each account whose key variable is unset or unusable: its jobs will fail (and
 * stay visible) while the other accounts' run. The variable is named, never its value.
 */
function warnMissingKeys(config: Config, accounts: readonly Account[], log: Logger): void {
  for (const account of accounts) {
    try {
      accountConfig(config, account);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      log.warn(
        { account: account.name, problems: error.problems },
        "this account's jobs will fail until its key is set",
      );
    }
  }
}
