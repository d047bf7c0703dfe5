/**
 * Settling a job whose end the queue lost. graphile-worker 0.17 writes a job's end (removed, or
 * unlocked to be tried again) without awaiting it, and tries that write again only for a few
 * SQLSTATEs: when the pooler or the database goes away as a job ends, the write is lost, the job
 * stays locked by this live worker (whose heartbeat keeps the lease sweep away) and the queue's own
 * rescue waits four hours. So the worker keeps a ledger of its jobs and, every few seconds,
 * compares it with the jobs its lock ids hold: a job that ended here but is still locked gets the
 * queue's own write again; a job locked but never started here (the answer that took it was lost)
 * is unlocked to be tried again. The lost write's rejection, which nobody awaits, is logged instead
 * of ending the process.
 */
import type { Sql } from "../db/connect.ts";
import { databaseGone } from "../db/db-errors.ts";
import { coerceError } from "../errors.ts";
import type { Logger } from "../logger.ts";
import { redactSecrets } from "../secrets.ts";
import { completeOwnJob, failOwnJob, jobsLockedBy } from "./sql/own-jobs.ts";

/** How a job's handler ended: returned (the queue removes the job) or threw (tried again later). */
export type JobOutcome = { ok: true } | { ok: false; message: string };

/** A job as the queue holds it: a try of it is known by its attempt (counted when it is taken). */
export interface LockedJob {
  id: string;
  attempts: number;
}

type Entry = LockedJob &
  (
    | { state: "running" }
    | { state: "ended"; outcome: JobOutcome; at: number }
    | { state: "unknown"; at: number }
  );

/** What to write for a try of a job this worker holds in the queue. */
export interface SettleStep extends LockedJob {
  action: "complete" | "fail";
  message: string;
}

/** Seconds the queue's own write of a job's end is given before the worker writes it. */
export const SETTLE_GRACE_MS = 5000;
/** How often the worker compares its ledger with the queue. */
export const SETTLE_CHECK_MS = 5000;

export const NEVER_STARTED =
  "the worker that took this job lost its database connection before the job started; tried again";

/** The worker's jobs as its handlers saw them. Pure: the clock is passed in. */
export class JobLedger {
  private readonly entries = new Map<string, Entry>();

  started(job: LockedJob): void {
    this.entries.set(job.id, { ...job, state: "running" });
  }

  ended(job: LockedJob, outcome: JobOutcome, now: number): void {
    this.entries.set(job.id, { ...job, state: "ended", outcome, at: now });
  }

  /**
   * Compares the ledger with the jobs the worker's lock ids hold (`locked`): an ended job the
   * queue has let go of leaves the ledger; one still locked `graceMs` after its end is to be
   * settled as it ended; a locked try the ledger never saw start is noted, and released once it
   * has been seen `graceMs` without starting. A try is its job's id and attempt: a job taken again
   * (its attempt counted once more) is a new try, never settled for the one before.
   */
  plan(locked: readonly LockedJob[], now: number, graceMs = SETTLE_GRACE_MS): SettleStep[] {
    const held = new Map(locked.map((j) => [j.id, j.attempts]));
    for (const [id, entry] of this.entries)
      if (entry.state !== "running" && held.get(id) !== entry.attempts) this.entries.delete(id);
    const steps: SettleStep[] = [];
    for (const job of locked) {
      const entry = this.entries.get(job.id);
      if (!entry || entry.attempts !== job.attempts) {
        if (entry?.state !== "running") this.entries.set(job.id, { ...job, state: "unknown", at: now });
      } else if (entry.state === "ended" && now - entry.at >= graceMs) {
        const { outcome } = entry;
        steps.push({
          ...job,
          action: outcome.ok ? "complete" : "fail",
          message: outcome.ok ? "" : outcome.message,
        });
      } else if (entry.state === "unknown" && now - entry.at >= graceMs) {
        steps.push({ ...job, action: "fail", message: NEVER_STARTED });
      }
    }
    return steps;
  }

  /** A step written: the job is the queue's again. */
  settled(id: string): void {
    this.entries.delete(id);
  }
}

export interface SettleDeps {
  sql: Sql;
  log: Logger;
  ledger: JobLedger;
  /** The ids the queue locks this worker's jobs with. */
  lockIds: () => readonly string[];
  everyMs?: number;
  now?: () => number;
}

export interface SettleKeeper {
  /** One comparison now (also run by the timer). */
  check(): Promise<void>;
  stop(): Promise<void>;
}

export function keepJobsSettled(deps: SettleDeps): SettleKeeper {
  const now = deps.now ?? Date.now;
  let running: Promise<void> | undefined;
  const check = () => {
    running ??= (async () => {
      try {
        const ids = deps.lockIds();
        const steps = deps.ledger.plan(await jobsLockedBy(deps.sql, ids), now());
        for (const step of steps) {
          const done =
            step.action === "complete"
              ? await completeOwnJob(deps.sql, ids, step)
              : await failOwnJob(deps.sql, ids, step, step.message);
          deps.ledger.settled(step.id);
          if (done)
            deps.log.warn(
              { jobId: step.id, action: step.action },
              step.message === NEVER_STARTED
                ? "a job taken over a lost connection was released to be tried again"
                : "the queue lost a job's end with its connection; written again now",
            );
        }
      } catch {
        // The database still away: the heartbeat says so; the next check tries again.
      } finally {
        running = undefined;
      }
    })();
    return running;
  };
  const timer = setInterval(check, deps.everyMs ?? SETTLE_CHECK_MS);
  timer.unref();
  return {
    check,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

/**
 * pg's errors for a connection that ended, which carry no code (its fixed messages; graphile-worker
 * talks to the database through pg).
 */
const PG_CONNECTION_ENDED = new Set([
  "Connection terminated unexpectedly",
  "Connection terminated",
  "Client has encountered a connection error and is not queryable",
  "Client was closed and is not queryable",
]);

/** Whether `reason` says the database connection was lost or could not be made. */
export function isConnectionLoss(reason: unknown): boolean {
  if (databaseGone(reason) !== undefined) return true;
  return reason instanceof Error && PG_CONNECTION_ENDED.has(reason.message);
}

/**
 * While the worker runs, a rejection nobody awaits that says the database connection was lost
 * (the queue's write of a job's end) is logged and left to keepJobsSettled; any other goes on to
 * the process's uncaught-exception handling, as without this listener. Returns the remover.
 */
export function guardLostQueueWrites(log: Logger): () => void {
  const listener = (reason: unknown) => {
    if (!isConnectionLoss(reason)) throw reason;
    log.warn(
      { err: redactSecrets(coerceError(reason).message) },
      "the queue could not write a job's end (the database connection was lost); the worker writes it once the database answers",
    );
  };
  process.on("unhandledRejection", listener);
  return () => process.off("unhandledRejection", listener);
}
