/**
 * A sync or backfill as a recorded job: the run row, the registry clients with usage
 * accounting, the pass itself, and the final status. The caller holds the run lock.
 */
import { alertsAfterRun } from "../alerts/hooks.ts";
import { createRegistry, type Registry } from "../api/registry.ts";
import { type Config, requireWatch } from "../config.ts";
import type { Sql } from "../db/connect.ts";
import { classifyDatabaseError } from "../db/db-errors.ts";
import type { RunLock } from "../db/lock.ts";
import { discardRun, finishRun, type RunTrigger, startRun } from "../db/runs.ts";
import { UsageRecorder } from "../db/usage.ts";
import { coerceError, UsageError } from "../errors.ts";
import type { Logger } from "../logger.ts";
import { noProgress, type ProgressSink } from "./progress.ts";
import { runSyncPass, type SyncPassOptions, type SyncReport } from "./sync-pass.ts";

export interface SyncJobDeps {
  sql: Sql;
  config: Config;
  log: Logger;
  trigger: RunTrigger;
  progress?: ProgressSink;
  signal?: AbortSignal;
  now?: () => Date;
  /**
   * A registry built by the caller: the daemon keeps one (one rate limiter, one metrics feed)
   * for its whole life, and records API usage itself. Without it, one is built for this job.
   */
  registry?: Registry;
  /** The run lock the caller holds: verified before each window commits. */
  lock?: RunLock;
}

export interface SyncJobResult {
  runId: number;
  status: "ok" | "partial" | "failed";
  report?: SyncReport;
  error?: Error;
}

export async function runSyncJob(deps: SyncJobDeps, options: SyncPassOptions): Promise<SyncJobResult> {
  const { config } = deps;
  requireWatch(config);
  const progress = deps.progress ?? noProgress;
  const runId = await startRun(deps.sql, options.kind, deps.trigger, { options });
  const usage = new UsageRecorder(deps.sql, config.tz);
  const registry =
    deps.registry ??
    createRegistry(config, {
      log: deps.log,
      signal: deps.signal,
      onResult: (r) => {
        usage.record({ api: r.api, endpoint: r.endpoint, error: r.code !== undefined });
        progress.request();
      },
    });
  const flusher = setInterval(() => {
    usage.flush().catch((error) => deps.log.warn({ err: coerceError(error).message }, "usage flush failed"));
  }, 5000);
  flusher.unref();
  try {
    const report = await runSyncPass(
      {
        sql: deps.sql,
        registry,
        config,
        log: deps.log,
        runId,
        progress,
        signal: deps.signal,
        now: deps.now,
        verifyLock: deps.lock ? (tx) => deps.lock!.verify(tx) : undefined,
      },
      options,
    );
    // The options stay with the run: alert raising reads --alert-history from them.
    await finishRun(deps.sql, runId, report.status, { options, ...report });
    deps.log.info(
      { runId, ...report, errors: report.errors.length },
      `${options.kind} finished: ${report.status}`,
    );
    return { runId, status: report.status, report };
  } catch (thrown) {
    const error = coerceError(classifyDatabaseError(thrown));
    if (error instanceof UsageError) {
      // Wrong arguments (found once the lists are known): no run happened, so none is recorded.
      await discardRun(deps.sql, runId).catch(() => {});
      return { runId, status: "failed", error };
    }
    await finishRun(deps.sql, runId, "failed", { options }, error.message).catch(() => {});
    // Not logged here: the caller reports it once (the command's `regwatch: ...` line, the
    // daemon's log), so a terminal does not show the same failure twice.
    return { runId, status: "failed", error };
  } finally {
    clearInterval(flusher);
    await usage.flush().catch(() => {});
    if (!deps.registry) {
      // After a stop, a request may still hang in the client: closing waits for it, so the wait
      // is bounded and whatever is left is dropped with the process.
      const closing = registry.close().catch(() => {});
      if (deps.signal?.aborted)
        await Promise.race([closing, new Promise((r) => setTimeout(r, 1000).unref())]);
      else await closing;
    }
    // After the run's commit: raise its alerts and deliver (on the wall clock, not a simulated
    // one); a stop in progress only raises, and the next pass delivers.
    await alertsAfterRun({ sql: deps.sql, config, log: deps.log }, { raiseOnly: deps.signal?.aborted });
  }
}
