/**
 * A worker's own locks in the job queue (graphile-worker's tables, schema `graphile_worker`): the
 * jobs its lock ids hold, and the end of a job written again when the queue's own write of it was
 * lost with its connection (settle.ts). Each write is one statement, the one the queue itself
 * sends (sql/completeJobs and sql/failJobs of graphile-worker 0.17), guarded by the lock: a job
 * that the queue's own write has settled meanwhile, or another worker holds, is left alone.
 */
import type { Fragment, Sql } from "../../db/connect.ts";

/** A try of a job: its id and its attempt (counted when the queue hands it out). */
export interface JobTry {
  id: string;
  attempts: number;
}

/** The jobs the lock ids hold now, each with its attempt. */
export async function jobsLockedBy(sql: Sql, lockIds: readonly string[]): Promise<JobTry[]> {
  if (lockIds.length === 0) return [];
  return sql<JobTry[]>`
    select id::text as id, attempts from graphile_worker._private_jobs
    where locked_by = any(${[...lockIds]}::text[])
    order by id`;
}

/** A try that finished: the job removed, its account's queue unlocked. True when this call did it. */
export async function completeOwnJob(sql: Sql, lockIds: readonly string[], job: JobTry): Promise<boolean> {
  return settleTry(sql, lockIds, job, (held) => sql`delete from graphile_worker._private_jobs where ${held}`);
}

/**
 * A try that failed (or never started): unlocked with its error, to be tried again after the
 * queue's own backoff (`exp(attempts)` seconds; attempts were counted when it was taken), or kept
 * failed once its attempts are used up. True when this call did it.
 */
export async function failOwnJob(
  sql: Sql,
  lockIds: readonly string[],
  job: JobTry,
  message: string,
): Promise<boolean> {
  return settleTry(
    sql,
    lockIds,
    job,
    (held) => sql`
      update graphile_worker._private_jobs
      set last_error = ${message},
        run_at = greatest(now(), run_at) + (exp(least(attempts, 10)) * interval '1 second'),
        locked_by = null, locked_at = null
      where ${held}`,
  );
}

/**
 * One statement: `write` (a delete or an update of the job, limited to `held`: this try, still
 * locked by these ids), then its account's queue unlocked when these ids hold it.
 */
async function settleTry(
  sql: Sql,
  lockIds: readonly string[],
  job: JobTry,
  write: (held: Fragment) => Fragment,
): Promise<boolean> {
  const ids = [...lockIds];
  const held = sql`id = ${job.id}::bigint and attempts = ${job.attempts} and locked_by = any(${ids}::text[])`;
  const rows = await sql`
    with j as (${write(held)} returning job_queue_id),
    q as (
      update graphile_worker._private_job_queues as queues set locked_by = null, locked_at = null
      from j where queues.id = j.job_queue_id and queues.locked_by = any(${ids}::text[])
    )
    select 1 from j`;
  return rows.length === 1;
}
