/**
 * What each kind of job runs for one account, on that account's Config and database session:
 * the same engine functions as the daemon and the commands. A run that ends failed or partial
 * throws, so the queue tries the job again later (with its growing backoff) until its attempts
 * run out, and then keeps it, failed, with the error. Errors never carry a key: the account's
 * keys are registered secrets, and every message is scrubbed before it leaves.
 *
 * Each job opens its own registry clients: the pacing (rate limiter) of an account belongs to
 * the one job running it, and the account's queue runs one job at a time.
 */
import { deliverAfterRun } from "../alerts/hooks.ts";
import type { ApiError } from "../api/errors.ts";
import type { Config } from "../config.ts";
import type { Database } from "../db/connect.ts";
import { coerceError } from "../errors.ts";
import { runSyncJob, type SyncJobResult } from "../jobs/sync-job.ts";
import type { Logger } from "../logger.ts";
import { reconcile } from "../reconcile/reconcile.ts";
import { acquireRunLock } from "../run/lock.ts";
import { type OpenRegistry, openRegistry, type WatchConfig } from "../run/open-registry.ts";
import type { RunTrigger } from "../run/runs.ts";
import { redactSecrets } from "../secrets.ts";
import type { JobPayload } from "./jobs.ts";

/**
 * A job's runs are recorded as the scheduler's (`schedule`), or as `manual` when a person queued
 * the job with `regwatch enqueue`.
 */
function triggerOf(job: JobPayload): RunTrigger {
  return job.manual ? "manual" : "schedule";
}

type RunDeps = AccountRunDeps & { trigger: RunTrigger };

export interface AccountRunDeps {
  config: WatchConfig;
  db: Database;
  log: Logger;
  /** The worker's stop: requests, pauses and backoffs end; windows and files in flight commit. */
  signal: AbortSignal;
  /** Seconds to wait for the account's run lock (held by a command, say) before the job fails. */
  lockWaitSeconds: number;
}

/** A job's run ended without doing all its work: thrown so the queue tries it again. */
export class JobRunError extends Error {
  constructor(message: string) {
    super(redactSecrets(message));
    this.name = "JobRunError";
  }
}

/**
 * The registry refused the account's key: the job ends at once and is not tried again (the
 * worker records the refusal; the account's jobs wait for another key or the next day).
 */
export class KeyRefusedError extends Error {
  constructor(
    readonly refusal: ApiError,
    readonly variable: string,
  ) {
    super(refusal.message);
    this.name = "KeyRefusedError";
  }
}

/** Throws KeyRefusedError once a request of the run has been refused (401/403). */
function stopIfRefused(registry: OpenRegistry): void {
  const { refusal } = registry.clients;
  if (refusal.error) throw new KeyRefusedError(refusal.error, refusal.variable);
}

export async function runAccountJob(accountDeps: AccountRunDeps, job: JobPayload): Promise<void> {
  const deps: RunDeps = { ...accountDeps, trigger: triggerOf(job) };
  switch (job.kind) {
    case "sync":
      return dailyRun(deps);
    case "backfill":
      return backfillRun(deps, job.from, job.to);
    case "reconcile":
      return reconcileRun(deps);
    case "deliver":
      await deliverAfterRun({ sql: deps.db.sql, config: deps.config, log: deps.log });
      return;
  }
}

/**
 * The daemon's daily job under one lock: reconcile, then sync the lists reconcile has just read
 * (a failed reconcile is said and the sync runs anyway, as in the daemon); the alerts the sync
 * raised are sent once the lock is released.
 */
async function dailyRun(deps: RunDeps): Promise<void> {
  const { config, db, log, signal } = deps;
  const registry = openRegistry(config, log, db.sql, { signal });
  let reconcileProblem: string | undefined;
  let result: SyncJobResult | undefined;
  try {
    const lock = await acquireRunLock(db.sql, { waitSeconds: deps.lockWaitSeconds });
    try {
      const rec = await reconcile(
        { config, log, db, registry: registry.clients, usage: registry.usage, lock },
        { trigger: deps.trigger },
      );
      stopIfRefused(registry);
      if (rec.failure) reconcileProblem = rec.failure.message;
      else if (rec.status === "failed" || rec.status === "partial")
        reconcileProblem = `reconcile ${rec.status}: ${rec.problems.join("; ") || "see its run"}`;
      if (reconcileProblem)
        log.warn({ runId: rec.runId, err: reconcileProblem }, "reconcile did not finish; syncing anyway");
      if (signal.aborted) throw new JobRunError("stopped before the sync started");
      result = await runSyncJob(
        { sql: db.sql, config, log, trigger: deps.trigger, signal, registry, lock, lists: rec.lists },
        { kind: "sync" },
      );
    } finally {
      await lock
        .release()
        .catch((error) => log.warn({ err: coerceError(error).message }, "releasing the run lock failed"));
    }
    if (result.status !== "failed" && !signal.aborted) await deliverAfterRun({ sql: db.sql, config, log });
  } finally {
    await registry.close(signal.aborted ? { boundMs: 1000 } : {});
  }
  stopIfRefused(registry);
  failUnlessDone("sync", result);
  if (reconcileProblem) throw new JobRunError(reconcileProblem);
}

async function backfillRun(deps: RunDeps, from: string, to: string): Promise<void> {
  const { config, db, log, signal } = deps;
  const registry = openRegistry(config, log, db.sql, { signal });
  try {
    const result = await runSyncJob(
      {
        sql: db.sql,
        config,
        log,
        trigger: deps.trigger,
        signal,
        registry,
        waitSeconds: deps.lockWaitSeconds,
      },
      { kind: "backfill", from, to },
    );
    stopIfRefused(registry);
    failUnlessDone("backfill", result);
  } finally {
    await registry.close(signal.aborted ? { boundMs: 1000 } : {});
  }
}

/** A reconcile refused by a guard fails too: it waits for a person, and the failed job says so. */
async function reconcileRun(deps: RunDeps): Promise<void> {
  const { config, db, log } = deps;
  const registry = openRegistry(config, log, db.sql, { signal: deps.signal });
  try {
    const rec = await reconcile(
      {
        config,
        log,
        db,
        registry: registry.clients,
        usage: registry.usage,
        waitSeconds: deps.lockWaitSeconds,
      },
      { trigger: deps.trigger },
    );
    stopIfRefused(registry);
    if (rec.failure) throw new JobRunError(`reconcile failed: ${rec.failure.message}`);
    if (rec.status === "failed" || rec.status === "partial" || rec.status === "refused")
      throw new JobRunError(`reconcile ${rec.status}: ${rec.problems.join("; ") || "see its run"}`);
  } finally {
    await registry.close(deps.signal.aborted ? { boundMs: 1000 } : {});
  }
}

function failUnlessDone(kind: string, result: SyncJobResult | undefined): void {
  if (!result || result.status === "ok") return;
  const reason =
    result.error?.message ??
    (result.report.stopped ? "stopped" : `${result.report.errors.length} error(s); see run ${result.runId}`);
  throw new JobRunError(`${kind} ${result.status} (run ${result.runId}): ${reason}`);
}

/** The account's Config once its watch settings are known to be there (accountConfig sets them). */
export function watchConfigOf(config: Config): WatchConfig {
  if (!config.watchUrl || !config.apiKey)
    throw new JobRunError(`account ${config.account}: no watch_url or key in its configuration`);
  return config as WatchConfig;
}
