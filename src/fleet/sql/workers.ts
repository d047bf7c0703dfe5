/**
 * The queue workers' heartbeats (`worker_heartbeats`, in the fleet's home schema). A worker
 * writes its row every few seconds; any worker finds the rows whose heartbeat is older than the
 * lease, marks them dead and releases their jobs in one transaction (see src/fleet/leases.ts).
 * Every beat and every comparison is on the database's clock (`now()`), never a process's: a
 * worker whose clock is off neither ends a live lease nor keeps a dead one.
 */
import { DEFAULTS } from "../../config-schema.ts";
import type { Sql } from "../../db/connect.ts";

export interface HeartbeatRow {
  id: string;
  lockIds: readonly string[];
  host: string;
  pid: number;
  concurrency: number;
  jobsRunning: number;
  jobsDone: number;
  jobsFailed: number;
}

export interface WorkerRow extends HeartbeatRow {
  startedAt: Date;
  heartbeatAt: Date;
  stoppedAt: Date | null;
  stopReason: string | null;
  /** Running, with a heartbeat within the lease. */
  alive: boolean;
}

/**
 * Writes the worker's row (created at its first beat), with the database's clock as the beat. A
 * worker that was only slow and found dead by another comes back to life here: its row says
 * what is true, although its jobs were already given to the others.
 */
export async function writeHeartbeat(sql: Sql, row: HeartbeatRow): Promise<void> {
  await sql`
    insert into ${sql.t.worker_heartbeats}
      (id, lock_ids, host, pid, concurrency, jobs_running, jobs_done, jobs_failed)
    values (${row.id}, ${[...row.lockIds]}::text[], ${row.host}, ${row.pid}, ${row.concurrency},
      ${row.jobsRunning}, ${row.jobsDone}, ${row.jobsFailed})
    on conflict (id) do update set
      lock_ids = excluded.lock_ids,
      heartbeat_at = now(),
      jobs_running = excluded.jobs_running,
      jobs_done = excluded.jobs_done,
      jobs_failed = excluded.jobs_failed,
      stopped_at = null,
      stop_reason = null`;
}

/**
 * The lease sweep, in one transaction on the database's clock: marks every running worker whose
 * last beat is older than `leaseSeconds` (never `exceptId`) as found dead, and unlocks in the job
 * queue the jobs and queues its ids hold, before committing. The update locks the rows it marks,
 * so a second sweeper running at once waits for this one and then finds them stopped: each dead
 * worker's jobs are released by one sweeper, once. Returns the workers released.
 */
export async function sweepExpiredWorkers(
  sql: Sql,
  leaseSeconds: number,
  exceptId: string,
): Promise<{ id: string; lockIds: string[] }[]> {
  return sql.begin(async (tx) => {
    const rows = await tx<{ id: string; lock_ids: string[] }[]>`
      update ${tx.t.worker_heartbeats}
      set stopped_at = now(), stop_reason = 'lease expired', jobs_running = 0
      where stopped_at is null and id <> ${exceptId}
        and heartbeat_at < now() - make_interval(secs => ${leaseSeconds})
      returning id, lock_ids`;
    const lockIds = rows.flatMap((r) => r.lock_ids);
    // graphile-worker's own function (what its forceUnlockWorkers calls), in this transaction.
    if (lockIds.length > 0) await tx`select graphile_worker.force_unlock_workers(${lockIds}::text[])`;
    return rows.map((r) => ({ id: r.id, lockIds: r.lock_ids }));
  });
}

/** Marks a worker gone after a clean stop (a dead one is marked by sweepExpiredWorkers). */
export async function markWorkerStopped(sql: Sql, id: string, reason: "stopped"): Promise<void> {
  await sql`
    update ${sql.t.worker_heartbeats} set stopped_at = now(), stop_reason = ${reason}, jobs_running = 0
    where id = ${id} and stopped_at is null`;
}

/**
 * Every worker row, newest first; `alive` when it has not stopped and its heartbeat is within
 * `leaseSeconds`. Rows of workers stopped longer than `keepStoppedHours` ago are left out.
 */
export async function listWorkers(
  sql: Sql,
  leaseSeconds: number = DEFAULTS.jobLeaseS,
  keepStoppedHours = 24,
): Promise<WorkerRow[]> {
  const rows = await sql<
    {
      id: string;
      lock_ids: string[];
      host: string;
      pid: number;
      concurrency: number;
      jobs_running: number;
      jobs_done: number;
      jobs_failed: number;
      started_at: Date;
      heartbeat_at: Date;
      stopped_at: Date | null;
      stop_reason: string | null;
      alive: boolean;
    }[]
  >`
    select id, array_to_json(lock_ids) as lock_ids, host, pid, concurrency, jobs_running, jobs_done,
      jobs_failed, started_at, heartbeat_at, stopped_at, stop_reason,
      (stopped_at is null and heartbeat_at >= now() - make_interval(secs => ${leaseSeconds})) as alive
    from ${sql.t.worker_heartbeats}
    where stopped_at is null or stopped_at > now() - make_interval(hours => ${keepStoppedHours})
    order by started_at desc, id`;
  return rows.map((r) => ({
    id: r.id,
    lockIds: r.lock_ids,
    host: r.host,
    pid: r.pid,
    concurrency: r.concurrency,
    jobsRunning: r.jobs_running,
    jobsDone: r.jobs_done,
    jobsFailed: r.jobs_failed,
    startedAt: r.started_at,
    heartbeatAt: r.heartbeat_at,
    stoppedAt: r.stopped_at,
    stopReason: r.stop_reason,
    alive: r.alive,
  }));
}

/** Gives the jobs the worker's lock ids still hold back to the queue (its stop, after the runner's). */
export async function unlockWorkerJobs(sql: Sql, lockIds: readonly string[]): Promise<void> {
  if (lockIds.length > 0) await sql`select graphile_worker.force_unlock_workers(${[...lockIds]}::text[])`;
}
