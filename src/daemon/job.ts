/**
 * The daemon's job: under the run lock, check that a run is still due, then reconcile and sync.
 * Checking again after taking the lock is what makes two daemons run once between them: the
 * second to get the lock finds the first one's run recorded and does nothing.
 */
import { setMaxListeners } from "node:events";
import type { Config } from "../config.ts";
import type { Database } from "../db/connect.ts";
import { classifyDatabaseError, DatabaseUnavailableError } from "../db/db-errors.ts";
import { coerceError, LockHeldError } from "../errors.ts";
import { runSyncJob } from "../jobs/sync-job.ts";
import type { Logger } from "../logger.ts";
import { reconcile } from "../reconcile/reconcile.ts";
import { acquireRunLock, type RunLock } from "../run/lock.ts";
import type { OpenRegistry } from "../run/open-registry.ts";
import { finishRun, type RunTrigger } from "../run/runs.ts";
import type { ProgressSink } from "../sync/progress.ts";
import type { DaemonMetrics } from "./metrics.ts";
import { killedReason, slotDecision } from "./resume-state.ts";
import {
  type CronSchedule,
  previousScheduledTime,
  RETRY_AFTER_FAILURE_MS,
  type ResumeDecision,
} from "./schedule.ts";

export type JobOutcome = "ran" | "not-due" | "lock-held" | "busy" | "stopping" | "error";

export interface JobDeps {
  db: Database;
  config: Config & { watchUrl: string; apiKey: string };
  log: Logger;
  /** The process's registry clients and usage recorder (see openRegistry). */
  registry: OpenRegistry;
  metrics: DaemonMetrics;
  schedule: CronSchedule;
  /** The schedule's next instant, to say when a held slot's work starts again. */
  nextRun?: () => Date | null | undefined;
  now?: () => Date;
}

export class JobRunner {
  private current: Promise<JobOutcome> | undefined;
  private controller = new AbortController();
  private lastFailure: Date | undefined;
  private stopping = false;
  /** When the job in progress last showed progress (a request, a window, a file). */
  private lastActivity: number | undefined;
  private exhaustedSlot: number | undefined;
  /** Why the latest slot is not resumed any more (its run's process died too often), for /readyz. */
  private held: string | undefined;
  /** A run whose database went away before its end could be written: written once it answers. */
  private unfinished: { runId: number; stats: Record<string, unknown>; error: string } | undefined;
  /** This process's run lock whose release did not reach the database. */
  private leftLease: RunLock | undefined;

  constructor(private readonly deps: JobDeps) {
    setMaxListeners(0, this.controller.signal); // every window, file and request in flight listens to it
  }

  get busy(): boolean {
    return this.current !== undefined;
  }

  /** Why /readyz should say not ready: a stop has begun, or a job has shown no progress for `stuckMs`. */
  notReadyReason(stuckMs: number): string | null {
    if (this.stopping) return "stopping";
    if (this.held) return this.held;
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
        // The database is unreachable, say: /readyz shows it, and the next check tries again. Only
        // other failures hold the next try back: the database answering again is worth a run at once.
        if (!(classifyDatabaseError(error) instanceof DatabaseUnavailableError))
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

  private async due(now: Date): Promise<{ due: boolean; slot: Date | undefined; decision: ResumeDecision }> {
    const slot = previousScheduledTime(this.deps.schedule, now);
    // A failure before any run row (the database, say) holds the next try back as well.
    if (this.lastFailure && now.getTime() - this.lastFailure.getTime() < RETRY_AFTER_FAILURE_MS) {
      const nextAt = new Date(this.lastFailure.getTime() + RETRY_AFTER_FAILURE_MS);
      return { due: false, slot, decision: { due: false, reason: "backoff", nextAt } };
    }
    const { decision } = await slotDecision(this.deps.db.sql, this.deps.schedule, now);
    this.deps.metrics.setResume(decision);
    const wasHeld = this.held;
    this.held = undefined;
    if (decision.reason === "killed") {
      this.held = killedReason(decision.kills, this.deps.nextRun?.()?.toISOString() ?? null);
      if (!wasHeld) this.deps.log.warn({ slot, kills: decision.kills }, this.held);
    }
    if (decision.reason === "exhausted" && this.exhaustedSlot !== slot?.getTime()) {
      this.exhaustedSlot = slot?.getTime();
      this.deps.log.warn(
        { slot, attempts: decision.attempts },
        "this slot's attempts ran out with windows still uncovered; waiting for the next scheduled run",
      );
    }
    return { due: decision.due, slot, decision };
  }

  private async attempt(trigger: "schedule" | "catchup"): Promise<JobOutcome> {
    const { db, log } = this.deps;
    const now = this.deps.now ?? (() => new Date());
    await this.finishUnfinished();
    // This process's own lease, left when the database went away during its release: given back
    // now, or the next run would wait for it to expire.
    if (this.leftLease && (await this.leftLease.release())) this.leftLease = undefined;
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
      const { due, slot, decision } = await this.due(now());
      if (!due) {
        log.debug({ trigger, slot, reason: decision.reason }, "no run due");
        return "not-due";
      }
      if (this.stopping) return "stopping";
      await this.run(trigger, slot, lock, decision.reason);
      return "ran";
    } finally {
      if (!(await lock.release())) {
        this.leftLease = lock;
        log.warn(
          "the run lock could not be given back (the database is away); it is when the database answers",
        );
      }
    }
  }

  private async run(
    trigger: "schedule" | "catchup",
    slot: Date | undefined,
    lock: RunLock,
    reason: string,
  ): Promise<void> {
    const { db, config, log, registry, metrics } = this.deps;
    const started = Date.now();
    const message =
      reason === "resume-stopped"
        ? "resuming a run that was stopped"
        : reason === "retry"
          ? "retrying an incomplete run"
          : trigger === "catchup"
            ? "catching up a missed run"
            : "scheduled run starting";
    log.info({ trigger, slot, reason }, message);
    metrics.setJobRunning(true);
    try {
      const reconcileStarted = Date.now();
      const rec = await reconcile(
        { config, log, db, registry: registry.clients, usage: registry.usage, lock },
        { trigger },
      );
      metrics.observeRun("reconcile", runStatusOf(rec.status), (Date.now() - reconcileStarted) / 1000);
      if (rec.failure) log.error({ err: rec.failure.message }, "reconcile failed; syncing anyway");
      else if (rec.status === "failed" || rec.status === "refused")
        log.warn({ runId: rec.runId, problems: rec.problems }, `reconcile ${rec.status}; syncing anyway`);
      if (this.controller.signal.aborted) {
        log.info("stop requested: sync not started");
        return;
      }
      const syncStarted = Date.now();
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
          // The lists reconcile has just read and stored: the registry is not asked for them again.
          lists: rec.lists,
        },
        { kind: "sync" },
      );
      metrics.observeRun("sync", result.status, (Date.now() - syncStarted) / 1000);
      metrics.recordChangesWritten(result.report.changesWritten);
      const dbLost = result.error instanceof DatabaseUnavailableError;
      this.lastFailure = result.status === "failed" && !dbLost ? new Date() : undefined;
      if (dbLost) {
        const { error: _error, ...stats } = result.report;
        this.unfinished = { runId: result.runId, stats, error: result.error!.message };
      }
      const fields = {
        trigger,
        runId: result.runId,
        status: result.status,
        seconds: (Date.now() - started) / 1000,
      };
      // The run's own failures (a window, a file, the whole run) are said here once, not as they happen.
      if (result.error) log.error({ ...fields, err: result.error.message }, "job finished");
      else if (result.status !== "ok") log.warn({ ...fields, errors: result.report.errors }, "job finished");
      else log.info(fields, "job finished");
    } catch (error) {
      if (!(classifyDatabaseError(error) instanceof DatabaseUnavailableError)) this.lastFailure = new Date();
      log.error({ trigger, err: coerceError(error).message }, "job failed");
    } finally {
      metrics.setJobRunning(false);
    }
  }

  /**
   * Marks the run that lost its database failed, with the reason, once the database answers: before
   * the lock is taken again, which would otherwise record it as abandoned by a dead process.
   */
  private async finishUnfinished(): Promise<void> {
    const run = this.unfinished;
    if (!run) return;
    await finishRun(this.deps.db.sql, run.runId, "failed", run.stats, run.error);
    this.unfinished = undefined;
    this.deps.log.info({ runId: run.runId }, "the run that lost its database is recorded failed");
  }

  /** A progress sink that only notes that something moved, for the stuck-job check. */
  private activity(): ProgressSink {
    const touch = () => {
      this.lastActivity = Date.now();
    };
    return { plan: touch, windowDone: touch, filesAdded: touch, fileDone: touch, request: touch };
  }
}

/** A reconcile's outcome in the run statuses the metrics use for every kind (ok, partial, failed). */
function runStatusOf(status: string): "ok" | "partial" | "failed" {
  if (status === "failed") return "failed";
  return status === "partial" || status === "refused" ? "partial" : "ok";
}
