/**
 * The job queue: graphile-worker's schema (`graphile_worker`) in regwatch's own database. Here:
 * installing or upgrading that schema, adding jobs (de-duplicated by their key), and the queue's
 * logger in regwatch's log. Counting jobs per account is in queue-counts.ts.
 */
import { makeWorkerUtils, Logger as QueueLogger, type WorkerUtils } from "graphile-worker";
import { DEFAULTS } from "../config-schema.ts";
import { type Logger, silentLogger } from "../logger.ts";
import { redactSecrets } from "../secrets.ts";
import { type JobPayload, jobKey, queueName, taskName } from "./jobs.ts";
import { addJobsDeduped } from "./sql/queue-add.ts";

/** Connections the queue's helpers keep open at most (adding jobs needs one). */
const UTILS_POOL_SIZE = 2;

/**
 * The queue's helpers on `databaseUrl`, with its schema installed or brought up to date (harmless
 * when it is current). Release them with `release()`.
 */
export async function openQueue(databaseUrl: string, log: Logger = silentLogger): Promise<WorkerUtils> {
  const utils = await makeWorkerUtils({
    connectionString: databaseUrl,
    maxPoolSize: UTILS_POOL_SIZE,
    logger: queueLogger(log),
  });
  try {
    await utils.migrate();
    return utils;
  } catch (error) {
    await utils.release();
    throw error;
  }
}

/** Installs or upgrades the queue's schema (`regwatch migrate` with an accounts file). */
export async function installQueue(databaseUrl: string, log: Logger = silentLogger): Promise<void> {
  const utils = await openQueue(databaseUrl, log);
  await utils.release();
}

/**
 * What became of a job asked for: added; not added because a job with its key is already queued
 * (or waiting for a retry), running, or failed for good (kept with its last error until it is
 * removed or rescheduled); or added in place of a job with its key that had failed for good
 * ("replaced": every kind but reconcile, see `freesFailedKey`).
 */
export type EnqueueState = "added" | "queued" | "running" | "failed" | "replaced";

/** The failed job a "replaced" answer removed: what the scheduler's log says of it. */
export interface ReplacedJob {
  id: string;
  attempts: number;
  lastError: string | null;
}

export interface EnqueueResult {
  job: JobPayload;
  key: string;
  /** The queue's id of the job added or found. */
  id: string;
  state: EnqueueState;
  /** state === "added" or "replaced" */
  added: boolean;
  /** state === "replaced": the job that had failed for good under the key. */
  replaced?: ReplacedJob;
}

export interface EnqueueOptions {
  /** Tries of each job, the first included (REGWATCH_JOB_MAX_ATTEMPTS). */
  maxAttempts: number;
}

/**
 * Whether a job that failed for good under this job's key gives the key up when the job is asked
 * for again. Kept, a failed job refuses its key until someone removes it by hand: a `deliver` key
 * names no day, so every later delivery; a `sync` key its day, so the slot's retries and any
 * `regwatch enqueue sync` that day; a `backfill` key its range, for good. The failed job is said
 * where it is replaced (the enqueue line, the scheduler's log) with its attempts and last error.
 * A `reconcile` job, asked for by hand only, still keeps its key.
 */
export function freesFailedKey(job: JobPayload): boolean {
  return job.kind !== "reconcile";
}

/**
 * Adds the jobs, each to its account's queue under its key, all in one statement (sql/queue-add.ts).
 * A job whose key is already in the queue is not added again (graphile-worker's `unsafe_dedupe` mode: the existing job is left as
 * it is, whether it waits or runs). A job found failed for good under the key of a kind that
 * frees it (freesFailedKey) is removed (graphile-worker's `completeJobs`, one statement that
 * leaves a locked job alone) and the job is added anew; the answer says which job it replaced.
 */
export async function enqueue(
  queue: string | WorkerUtils | { databaseUrl: string; log: Logger },
  jobs: readonly JobPayload[],
  options: EnqueueOptions = { maxAttempts: DEFAULTS.jobMaxAttempts },
): Promise<EnqueueResult[]> {
  const utils =
    typeof queue === "string"
      ? await openQueue(queue)
      : "addJob" in queue
        ? queue
        : await openQueue(queue.databaseUrl, queue.log);
  try {
    const results: EnqueueResult[] = [];
    // Every job in one statement; the few found failed for good under their key are replaced one by one.
    const specs = jobs.map((job) => ({
      task: taskName(job.kind),
      payload: job,
      queueName: queueName(job.account),
      jobKey: jobKey(job),
    }));
    const rows = await addJobsDeduped(utils, specs, options.maxAttempts);
    for (const [i, job] of jobs.entries()) {
      const key = specs[i]!.jobKey;
      const found = rows[i]!;
      const state = stateOf(found);
      if (state === "failed" && freesFailedKey(job)) {
        // Another scheduler may have replaced it already: then the second add finds its job.
        await utils.completeJobs([found.id]);
        const added = await utils.addJob(specs[i]!.task, job, {
          queueName: specs[i]!.queueName,
          jobKey: key,
          jobKeyMode: "unsafe_dedupe",
          maxAttempts: options.maxAttempts,
        });
        const again = stateOf(added);
        const replaced = { id: String(found.id), attempts: found.attempts, lastError: found.last_error };
        results.push({
          job,
          key,
          id: String(added.id),
          state: again === "added" ? "replaced" : again,
          added: again === "added",
          ...(again === "added" ? { replaced } : {}),
        });
        continue;
      }
      results.push({ job, key, id: String(found.id), state, added: state === "added" });
    }
    return results;
  } finally {
    if (utils !== queue) await utils.release();
  }
}

/** A dedupe answers with the existing row, its revision bumped; a new row has revision 0. */
function stateOf(job: {
  revision: number;
  locked_at: Date | null;
  attempts: number;
  max_attempts: number;
}): Exclude<EnqueueState, "replaced"> {
  if (job.revision === 0) return "added";
  if (job.locked_at) return "running";
  return job.attempts >= job.max_attempts ? "failed" : "queued";
}

/**
 * graphile-worker's messages in regwatch's log, scrubbed of secrets. Its own info messages
 * (connections, pool start) are routine for regwatch: they go to debug.
 */
export function queueLogger(log: Logger): QueueLogger {
  return new QueueLogger((scope) => (level, message, meta) => {
    const fields = { component: "graphile-worker", ...(scope.workerId ? { lockId: scope.workerId } : {}) };
    const text = redactSecrets(message);
    // A job's failure is logged once by the task itself, with its account (tasks.ts).
    const jobFailure = (meta as { failure?: boolean } | undefined)?.failure === true;
    if (level === "error" && !jobFailure) log.error({ ...fields, meta: metaSummary(meta) }, text);
    else if (level === "warning") log.warn(fields, text);
    else log.debug(fields, text);
  });
}

/** Only the error's message of a log call's metadata: jobs and clients are not for the log. */
function metaSummary(meta: unknown): string | undefined {
  const error = (meta as { error?: unknown } | undefined)?.error;
  return error instanceof Error ? redactSecrets(error.message) : undefined;
}
