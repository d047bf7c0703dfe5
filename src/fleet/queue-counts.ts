/**
 * Jobs per account as the queue holds them, read from graphile-worker's public `jobs` view (its
 * own schema; the one SQL of the fleet outside src/db/, since the tables are the queue's).
 */
import type { Sql } from "../db/connect.ts";
import { accountOfQueue } from "./jobs.ts";

export interface QueueCount {
  account: string;
  /** Waiting to run, a retry after a failed try included. */
  queued: number;
  running: number;
  /** Out of attempts: kept, with its last error, until removed or rescheduled. */
  failed: number;
}

export interface QueuedJob {
  id: string;
  account: string;
  task: string;
  key: string | null;
  attempts: number;
  maxAttempts: number;
  lastError: string | null;
  lockedBy: string | null;
  runAt: Date;
}

/** Counts per account queue, in account order; an account with no job is not listed. */
export async function queueCounts(sql: Sql): Promise<QueueCount[]> {
  const rows = await sql<{ queue_name: string; queued: number; running: number; failed: number }[]>`
    select queue_name,
      count(*) filter (where locked_at is null and attempts < max_attempts)::int as queued,
      count(*) filter (where locked_at is not null)::int as running,
      count(*) filter (where locked_at is null and attempts >= max_attempts)::int as failed
    from graphile_worker.jobs
    where queue_name like 'regwatch:%'
    group by queue_name
    order by queue_name`;
  return rows.flatMap((r) => {
    const account = accountOfQueue(r.queue_name);
    return account ? [{ account, queued: r.queued, running: r.running, failed: r.failed }] : [];
  });
}

/** The jobs in the queue of regwatch's accounts, oldest first (for status views and tests). */
export async function queuedJobs(sql: Sql): Promise<QueuedJob[]> {
  const rows = await sql<
    {
      id: string;
      queue_name: string;
      task_identifier: string;
      key: string | null;
      attempts: number;
      max_attempts: number;
      last_error: string | null;
      locked_by: string | null;
      run_at: Date;
    }[]
  >`
    select jobs.id::text as id, queue_name, task_identifier, key, attempts, max_attempts, last_error, locked_by, run_at
    from graphile_worker.jobs
    where queue_name like 'regwatch:%'
    order by jobs.id`;
  return rows.map((r) => ({
    id: r.id,
    account: accountOfQueue(r.queue_name) ?? "",
    task: r.task_identifier,
    key: r.key,
    attempts: r.attempts,
    maxAttempts: r.max_attempts,
    lastError: r.last_error,
    lockedBy: r.locked_by,
    runAt: r.run_at,
  }));
}
