/**
 * Adding many jobs to graphile-worker's queue in one statement: its own `add_job` (the function
 * its `addJob` calls) once per job, in the jobs' order, with `unsafe_dedupe` (a job whose key is
 * already queued is left as it is, and answered). One round trip for the whole `enqueue sync
 * --all` of a thousand accounts, where one call a job took a thousand.
 */
import type { WorkerUtils } from "graphile-worker";

export interface QueueJobSpec {
  task: string;
  payload: unknown;
  queueName: string;
  jobKey: string;
}

/** The queue's row for each job, as add_job answers it (the added one, or the one found under its key). */
export interface AddedJobRow {
  id: string;
  revision: number;
  locked_at: Date | null;
  attempts: number;
  max_attempts: number;
  last_error: string | null;
}

export async function addJobsDeduped(
  utils: WorkerUtils,
  specs: readonly QueueJobSpec[],
  maxAttempts: number,
): Promise<AddedJobRow[]> {
  if (specs.length === 0) return [];
  return utils.withPgClient(async (client) => {
    const { rows } = await client.query<AddedJobRow>(
      `select j.id::text as id, j.revision, j.locked_at, j.attempts, j.max_attempts, j.last_error
       from unnest($1::text[], $2::json[], $3::text[], $4::text[]) with ordinality
              as s(identifier, payload, queue_name, job_key, ord)
       cross join lateral graphile_worker.add_job(
         identifier => s.identifier, payload => s.payload, queue_name => s.queue_name, run_at => null,
         max_attempts => $5::int, job_key => s.job_key, priority => null, flags => null,
         job_key_mode => 'unsafe_dedupe') j
       order by s.ord`,
      [
        specs.map((s) => s.task),
        specs.map((s) => JSON.stringify(s.payload ?? {})),
        specs.map((s) => s.queueName),
        specs.map((s) => s.jobKey),
        maxAttempts,
      ],
    );
    if (rows.length !== specs.length)
      throw new Error(`the queue answered ${rows.length} of ${specs.length} jobs`);
    return rows;
  });
}
