/**
 * The daemon's job: under the run lock, check that a run is still due, then reconcile and sync.
 * Checking again after taking the lock is what makes two daemons run once between them: the
 * second to get the lock finds the first one's run recorded and does nothing.
 */
import type { Registry } from "../api/registry.ts";
import type { Config } from "../config.ts";
import type { Database } from "../db/connect.ts";
import { acquireRunLock, type RunLock } from "../db/lock.ts";
import type { RunTrigger } from "../db/runs.ts";
import { lastScheduledSuccess } from "../db/status.ts";
import type { UsageRecorder } from "../db/usage.ts";
import { coerceError, LockHeldError } from "../errors.ts";
import type { Logger } from "../logger.ts";
import { reconcile } from "../reconcile/reconcile.ts";
import type { ProgressSink } from "../sync/progress.ts";
import { runSyncJob } from "../sync/sync-job.ts";
import type { DaemonMetrics } from "./metrics.ts";
import { type CronSchedule, catchUpDue, previousScheduledTime } from "./schedule.ts";

/** After a failed run, catch-up checks wait this long before trying again. */
export const RETRY_AFTER_FAILURE_MS = 15 * 60_000;

export type JobOutcome = "ran" | "not-due" | "lock-held" | "busy" | "stopping" | "error";

export interface JobDeps {
  db: Database;
  config: Config & { watchUrl: string; apiKey: string };
  log: Logger;
  registry: Registry;
  usage: UsageRecorder;
  metrics: DaemonMetrics;
  schedule: CronSchedule;
  now?: () => Date;
}

export class JobRunner {
  private current: Promise<JobOutcome> | undefined;
  private controller = new AbortController();
  private lastFailure: Date | undefined;
  private stopping = false;
  /** When the job in progress last showed progress (a request, a window, a file). */
  private lastActivity: number | undefined;

  constructor(private readonly deps: JobDeps) {}

  get busy(): boolean {
    return this.current !== undefined;
  }

  /** Why /readyz should say not ready: a stop has begun, or a job has shown no progress for `stuckMs`. */
  notReadyReason(stuckMs: number): string | null {
    if (this.stopping) return "stopping";
    if (this.current && this.lastActivity !== undefined) {
      const idle = Date.now() - this.lastActivity;
      if (idle > stuckMs) return `the run has shown no progress for ${Math.round(idle / 1000)} s`;
    }
    return null;
  }

  /** Runs reconcile and sync when the schedule has fired since the last successful run. */
  runIfDue(trigger: Extract<RunTrigger, "schedule" | "catchup">): Promise<JobOutcome> {
    if (this.stopping) return Promise.resolve("stopping");
    if (this.current) return Promise.resolve("busy");
    this.lastActivity = Date.now();
    const job = this.attempt(trigger)
      .catch((error): JobOutcome => {
        // The database is unreachable, say: /readyz shows it, and the next check tries again.
        this.lastFailure = new Date();
        this.deps.log.error({ trigger, err: coerceError(error).message }, "run check failed");
        return "error";
      })
      .finally(() => {
        this.current = undefined;
        this.lastActivity = undefined;
      });
    this.current = job;
    return job;
  }

  /**
   * Asks a job in progress to stop (windows and files in flight commit, the run ends partial) and
   * waits for it up to `boundMs`. True when nothing was left running.
   */
  async stop(boundMs: number): Promise<boolean> {
    this.stopping = true;
    this.controller.abort();
    const job = this.current;
    if (!job) return true;
    let timer: NodeJS.Timeout | undefined;
    const finished = await Promise.race([
      job.then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), boundMs);
      }),
    ]);
    clearTimeout(timer);
    return finished;
  }

  private async due(now: Date): Promise<{ due: boolean; slot: Date | undefined }> {
    const slot = previousScheduledTime(this.deps.schedule, now);
    const lastSuccess = await lastScheduledSuccess(this.deps.db.sql);
    const due = catchUpDue({
      slot,
      lastSuccess,
      lastFailure: this.lastFailure,
      now,
      retryAfterMs: RETRY_AFTER_FAILURE_MS,
    });
    return { due, slot };
  }

  private async attempt(trigger: "schedule" | "catchup"): Promise<JobOutcome> {
    const { db, log } = this.deps;
    const now = this.deps.now ?? (() => new Date());
    let lock: Awaited<ReturnType<typeof acquireRunLock>>;
    try {
      lock = await acquireRunLock(db.sql, { waitSeconds: 0 });
    } catch (error) {
      if (!(error instanceof LockHeldError)) throw error;
      // Another process is calling the registry; a later check runs what is still due then.
      log[trigger === "schedule" ? "info" : "debug"](
        { trigger, holder: error.message },
        "run skipped: lock held",
      );
      return "lock-held";
    }
    try {
      const { due, slot } = await this.due(now());
      if (!due) {
        log.debug({ trigger, slot }, "no run due");
        return "not-due";
      }
      if (this.stopping) return "stopping";
      await this.run(trigger, slot, lock);
      return "ran";
    } finally {
      await lock
        .release()
        .catch((error) => log.warn({ err: coerceError(error).message }, "releasing the run lock failed"));
    }
  }

  private async run(trigger: "schedule" | "catchup", slot: Date | undefined, lock: RunLock): Promise<void> {
    const { db, config, log, registry, usage, metrics } = this.deps;
    const started = Date.now();
    log.info(
      { trigger, slot },
      trigger === "catchup" ? "catching up a missed run" : "scheduled run starting",
    );
    metrics.setJobRunning(true);
    const flusher = setInterval(() => {
      usage.flush().catch((error) => log.warn({ err: coerceError(error).message }, "usage flush failed"));
    }, 5000);
    try {
      try {
        const report = await reconcile({ config, log, db, registry, usage }, { trigger });
        if (report.status === "failed" || report.status === "refused")
          log.warn(
            { runId: report.runId, problems: report.problems },
            `reconcile ${report.status}; syncing anyway`,
          );
      } catch (error) {
        log.error({ err: coerceError(error).message }, "reconcile failed; syncing anyway");
      }
      if (this.controller.signal.aborted) {
        log.info("stop requested: sync not started");
        return;
      }
      const result = await runSyncJob(
        {
          sql: db.sql,
          config,
          log,
          trigger,
          signal: this.controller.signal,
          registry,
          lock,
          progress: this.activity(),
        },
        { kind: "sync" },
      );
      metrics.recordChangesWritten(result.report?.changesWritten ?? 0);
      this.lastFailure = result.status === "failed" ? new Date() : undefined;
      log.info(
        { trigger, runId: result.runId, status: result.status, seconds: (Date.now() - started) / 1000 },
        "job finished",
      );
    } catch (error) {
      this.lastFailure = new Date();
      log.error({ trigger, err: coerceError(error).message }, "job failed");
    } finally {
      clearInterval(flusher);
      await usage.flush().catch(() => {});
      metrics.setJobRunning(false);
    }
  }

  /** A progress sink that only notes that something moved, for the stuck-job check. */
  private activity(): ProgressSink {
    const touch = () => {
      this.lastActivity = Date.now();
    };
    return { plan: touch, windowDone: touch, filesAdded: touch, fileDone: touch, request: touch };
  }
}
