/**
 * One recorded run, whatever its kind (sync, backfill, reconcile): the run lock, the `runs` row,
 * API usage flushed while it goes on, the final status, and cleanup in the reverse order.
 *
 *   lock (taken here, or the caller's) → prepare (no row yet) → run row → body → final status
 *   → deferred cleanups, last registered first → last usage flush → lock released (if taken here)
 *
 * Arguments are checked before the row is written: a UsageError from `prepare` (an unknown
 * --list) leaves no run behind and is thrown to the command (exit 64). Any other failure of
 * `prepare` (the registry answering 401 to the first request) is a failed run, recorded as such,
 * so `status`, the daemon's retry rule and the `runs` table all see it.
 */
import type { Sql } from "../db/connect.ts";
import { classifyDatabaseError, DatabaseUnavailableError } from "../db/db-errors.ts";
import { coerceError, UsageError } from "../errors.ts";
import type { Logger } from "../logger.ts";
import { acquireRunLock, type RunLock } from "./lock.ts";
import { untilLockLost } from "./lost-lock.ts";
import { finishRun, type RunKind, type RunStatus, type RunTrigger, startRun } from "./runs.ts";
import type { UsageRecorder } from "./usage.ts";

export type FinalStatus = Exclude<RunStatus, "running">;

export interface RunDeps {
  sql: Sql;
  log: Logger;
  /** The lock the caller already holds (the daemon's job); without it the run takes its own. */
  lock?: RunLock;
  /** Seconds to wait for another run's lock (`--wait`); 0 fails at once with exit 75. */
  waitSeconds?: number;
  /** Request counts added to `api_usage` every 5 s while the run goes on, and at its end. */
  usage?: UsageRecorder;
}

export interface RunScope {
  runId: number;
  lock: RunLock;
  /** Runs after the final status is recorded, before the lock is released; last registered first. */
  defer(cleanup: () => unknown): void;
}

/** What the body hands back: the run's final status and statistics, and its own result. */
export interface RunEnd<R> {
  status: FinalStatus;
  stats: Record<string, unknown>;
  error?: string;
  result: R;
}

export interface RunJob<P, R> {
  kind: RunKind;
  trigger: RunTrigger;
  /** Stored in the run's stats from its start, and kept when it fails. */
  stats?: Record<string, unknown>;
  /** Under the lock, before the run row exists (see the module comment). */
  prepare?: (lock: RunLock) => Promise<P>;
  body: (run: RunScope, prepared: P) => Promise<RunEnd<R>>;
}

export interface RunResult<R> {
  runId: number;
  status: FinalStatus;
  /** The body's result; absent when the run failed before or outside the body's own reporting. */
  result?: R;
  error?: Error;
}

const USAGE_FLUSH_MS = 5000;

export async function withRun<P, R>(deps: RunDeps, job: RunJob<P, R>): Promise<RunResult<R>> {
  const { sql, log } = deps;
  const cleanups: Array<() => unknown> = [];
  const ownLock = deps.lock
    ? undefined
    : await acquireRunLock(sql, {
        waitSeconds: deps.waitSeconds ?? 0,
        onWait: (holder) =>
          log.info(`waiting up to ${deps.waitSeconds} s for the run lock, which ${holder} holds`),
      });
  const lock = (deps.lock ?? ownLock)!;
  const flusher = deps.usage
    ? setInterval(() => {
        if (lock.signal.aborted) return; // the run is ending; its last flush says what failed
        deps
          .usage!.flush()
          .catch((error) => log.warn({ err: coerceError(error).message }, "usage flush failed"));
      }, USAGE_FLUSH_MS)
    : undefined;
  flusher?.unref();
  let runId: number | undefined;
  let failure: Error | undefined;
  try {
    let prepared: P;
    try {
      prepared = (await untilLockLost(Promise.resolve(job.prepare?.(lock)), lock)) as P;
    } catch (thrown) {
      const error = coerceError(classifyDatabaseError(thrown));
      if (error instanceof UsageError) throw error;
      runId = await startRun(sql, job.kind, job.trigger, job.stats);
      await finishRun(sql, runId, "failed", job.stats ?? {}, error.message).catch(() => {});
      return { runId, status: "failed", error };
    }
    runId = await startRun(sql, job.kind, job.trigger, job.stats);
    const id = runId;
    try {
      const end = await untilLockLost(
        job.body({ runId: id, lock, defer: (cleanup) => cleanups.push(cleanup) }, prepared),
        lock,
      );
      await finishRun(sql, id, end.status, { ...job.stats, ...end.stats }, end.error);
      return { runId: id, status: end.status, result: end.result };
    } catch (thrown) {
      const error = coerceError(classifyDatabaseError(thrown));
      failure = error;
      // With the database gone the row stays 'running'; the next process to take the lock marks it.
      await finishRun(sql, id, "failed", job.stats ?? {}, error.message).catch(() => {});
      // Not logged here: the caller says it once (the command's `regwatch: ...` line, the daemon's log).
      return { runId: id, status: "failed", error };
    }
  } finally {
    // With the database gone, the cleanups (alerts, usage) could only fail, each with a line of its
    // own: the run's one message says it all, and the next run catches up on what they would do.
    const dbLost =
      failure instanceof DatabaseUnavailableError || lock.signal.reason instanceof DatabaseUnavailableError;
    if (dbLost) cleanups.length = 0;
    for (const cleanup of cleanups.reverse()) {
      await Promise.resolve()
        .then(cleanup)
        .catch((error) => log.warn({ err: coerceError(error).message }, "cleaning up after a run failed"));
    }
    if (flusher) clearInterval(flusher);
    if (!dbLost)
      await deps.usage
        ?.flush()
        .catch((error) =>
          log.warn(
            { err: coerceError(error).message },
            "could not record API usage; it is kept for the next flush",
          ),
        );
    await ownLock?.release();
  }
}
