/**
 * A sync or backfill as a recorded job (see withRun): the lists selected before the run row, the
 * pass, its report as the run's statistics, then its alerts. Always returns the report; a usage
 * error (an unknown --list) or the run lock held by another process is thrown, as no run happened.
 */
import type { DeliveryReport } from "../alerts/deliver.ts";
import { alertsAfterRun, deliverAfterRun } from "../alerts/hooks.ts";
import { type Config, requireWatch } from "../config.ts";
import type { Sql } from "../db/connect.ts";
import { DatabaseUnavailableError } from "../db/db-errors.ts";
import type { Logger } from "../logger.ts";
import type { StoredList } from "../run/lists.ts";
import { type RunLock, RunLockLostError } from "../run/lock.ts";
import { type OpenRegistry, openRegistry } from "../run/open-registry.ts";
import type { RunTrigger } from "../run/runs.ts";
import { withRun } from "../run/with-run.ts";
import { noProgress, type ProgressSink } from "../sync/progress.ts";
import { applyRegistryDescription } from "../sync/registry-description.ts";
import { selectLists } from "../sync/select-lists.ts";
import { emptySyncReport, runSyncPass, type SyncPassOptions, type SyncReport } from "../sync/sync-pass.ts";

export interface SyncJobDeps {
  sql: Sql;
  config: Config;
  log: Logger;
  trigger: RunTrigger;
  progress?: ProgressSink;
  signal?: AbortSignal;
  now?: () => Date;
  /**
   * The process's registry clients (see openRegistry): the daemon keeps one (one rate limiter,
   * one metrics feed) for its whole life. Without them, they are opened for this job and closed.
   */
  registry?: OpenRegistry;
  /** The run lock the caller holds; without it the job takes it, waiting up to `waitSeconds`. */
  lock?: RunLock;
  waitSeconds?: number;
  /** The lists as just read from the registry and stored (by the daemon's reconcile): not read again. */
  lists?: readonly StoredList[];
}

export interface SyncJobResult {
  runId: number;
  status: "ok" | "partial" | "failed";
  report: SyncReport;
  error?: Error;
  /** The delivery pass after the run, when one ran (its `error` says when delivery failed). */
  delivery?: DeliveryReport;
}

export async function runSyncJob(deps: SyncJobDeps, options: SyncPassOptions): Promise<SyncJobResult> {
  const { config, log, sql } = deps;
  const progress = deps.progress ?? noProgress;
  const registry = deps.registry ?? ownRegistry(deps, progress);
  let lost = false;
  let dbLost = false;
  try {
    const run = await withRun(
      { sql, log, lock: deps.lock, waitSeconds: deps.waitSeconds, usage: registry.usage },
      {
        kind: options.kind,
        trigger: deps.trigger,
        // The options stay with the run: alert raising reads --alert-history from them.
        stats: { options },
        prepare: async () => {
          // The changes parameters first: what the registry's description says decides them.
          const changes = await applyRegistryDescription({
            sql,
            config: watchConfig(config),
            log,
            registry: registry.clients,
            signal: deps.signal,
            now: deps.now,
          });
          const lists = await selectLists({ sql, registry: registry.clients }, options.lists, deps.lists);
          return { changes, lists };
        },
        body: async (scope, { changes, lists: selected }) => {
          // After the run's commit, under its lock: raise its alerts and queue their messages only.
          // Sending waits for the lock's release (below; the daemon's deliverer sends its runs').
          scope.defer(() => alertsAfterRun({ sql, config, log }, { raiseOnly: true }));
          const report = await runSyncPass(
            {
              sql,
              registry: registry.clients,
              config: { ...config, ...changes },
              log,
              runId: scope.runId,
              progress,
              signal: deps.signal,
              now: deps.now,
              lock: scope.lock,
            },
            options,
            selected,
          );
          const { error, ...stats } = report;
          if (!error)
            log.info(
              { runId: scope.runId, ...stats, errors: stats.errors.length },
              `${options.kind} finished: ${report.status}`,
            );
          return { status: report.status, stats, error: error?.message, result: report };
        },
      },
    );
    // The lock is released: a command-line run sends what it queued, in one bounded pass. Not
    // after a failed run (the database may be what failed); the next pass sends what waits.
    const delivery =
      !deps.lock && !deps.signal?.aborted && run.status !== "failed"
        ? await deliverAfterRun({ sql, config, log })
        : undefined;
    const error = run.error ?? run.result?.error;
    dbLost = error instanceof DatabaseUnavailableError;
    lost = dbLost || error instanceof RunLockLostError;
    const report = run.result ?? failedReport(error);
    return {
      runId: run.runId,
      status: run.status,
      report,
      ...(error ? { error } : {}),
      ...(delivery ? { delivery } : {}),
    };
  } finally {
    // After a stop, or once the lock or the database is lost, a request may still hang in a
    // client: the wait for it is bounded.
    if (!deps.registry)
      await registry.close(deps.signal?.aborted || lost ? { boundMs: 1000, databaseLost: dbLost } : {});
  }
}

function watchConfig(config: Config): Config & { watchUrl: string } {
  requireWatch(config);
  return config;
}

function ownRegistry(deps: SyncJobDeps, progress: ProgressSink): OpenRegistry {
  const { config } = deps;
  requireWatch(config);
  return openRegistry(config, deps.log, deps.sql, {
    signal: deps.signal,
    onRequest: (r) => progress.request(r.status !== undefined),
    onRetry: (info) =>
      progress.retrying?.({
        attempt: info.attempt + 1,
        maxAttempts: info.maxAttempts,
        delayMs: info.delayMs,
      }),
  });
}

/** The report of a run that failed before its pass could say anything (the first request refused). */
function failedReport(error: Error | undefined): SyncReport {
  return { ...emptySyncReport(""), status: "failed", ...(error ? { error } : {}) };
}
