/**
 * The queue workers' heartbeats (`worker_heartbeats`, in the fleet's home schema). A worker
 * writes its row every few seconds; any worker finds the rows whose heartbeat is older than the
 * lease and marks them dead once their jobs are released (see src/fleet/leases.ts).
 */
import { DEFAULTS } from "../config-schema.ts";
import type { Sql } from "./connect.ts";

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
    insert into worker_heartbeats
      (id, lock_ids, host, pid, concurrency, jobs_running, jobs_done, jobs_failed)
    values (${row.id}, ${sql.array([...row.lockIds])}::text[], ${row.host}, ${row.pid}, ${row.concurrency},
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

/** Rows of running workers whose last beat is older than `leaseSeconds` (never `exceptId`). */
export async function expiredWorkers(
  sql: Sql,
  leaseSeconds: number,
  exceptId: string,
): Promise<{ id: string; lockIds: string[] }[]> {
  const rows = await sql<{ id: string; lock_ids: string[] }[]>`
    select id, lock_ids from worker_heartbeats
    where stopped_at is null and id <> ${exceptId}
      and heartbeat_at < now() - make_interval(secs => ${leaseSeconds})
    order by heartbeat_at`;
  return rows.map((r) => ({ id: r.id, lockIds: r.lock_ids }));
}

/** Marks a worker gone: a clean stop, or a lease found expired once its jobs were released. */
export async function markWorkerStopped(
  sql: Sql,
  id: string,
  reason: "stopped" | "lease expired",
): Promise<void> {
  await sql`
    update worker_heartbeats set stopped_at = now(), stop_reason = ${reason}, jobs_running = 0
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
    select *, (stopped_at is null and heartbeat_at >= now() - make_interval(secs => ${leaseSeconds})) as alive
    from worker_heartbeats
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
