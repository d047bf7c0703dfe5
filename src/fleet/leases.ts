/**
 * Leases: a worker says it is alive by writing its heartbeat row every few seconds, and on the
 * same beat looks for workers whose heartbeat is older than the lease (REGWATCH_JOB_LEASE_S).
 * Those are taken for dead: their row is marked and the jobs and queues their workers hold in the
 * queue are unlocked in the same transaction, so another worker takes the account over. Beats and
 * the lease's comparison use the database's clock, so a worker's own clock plays no part. The queue's own rule
 * (a lock older than four hours) is far too slow for a fleet that runs every day.
 *
 * Only the heartbeat's age decides, never a worker's host or pid (containers share host names and
 * reuse pids). A worker that was only slow, not dead, may then run a job another worker runs as
 * well: the account's run lock (a lease row renewed on the database's clock, src/run/lock.ts) is
 * what keeps two processes from calling one registry with one key.
 */
import type { Sql } from "../db/connect.ts";
import { coerceError } from "../errors.ts";
import type { Logger } from "../logger.ts";
import { type HeartbeatRow, sweepExpiredWorkers, writeHeartbeat } from "./sql/workers.ts";

export interface LeaseDeps {
  sql: Sql;
  log: Logger;
  leaseSeconds: number;
  /** The row as it is now (counters, the worker ids the queue knows). */
  row: () => HeartbeatRow;
}

/** Every 30 s, or five times per lease when the lease is shorter than 150 s. */
export function heartbeatEveryMs(leaseSeconds: number): number {
  return Math.min(30_000, Math.floor((leaseSeconds * 1000) / 5));
}

export interface LeaseKeeper {
  /** One beat and sweep now (also run by the timer). */
  beat(): Promise<void>;
  /** Ends the beats; the row is marked stopped by the caller once its jobs are released. */
  stop(): Promise<void>;
}

export function keepLease(deps: LeaseDeps): LeaseKeeper {
  let running: Promise<void> | undefined;
  let failing = false;
  const beat = () => {
    running ??= (async () => {
      try {
        await writeHeartbeat(deps.sql, deps.row());
        await sweepExpired(deps, deps.row().id);
        if (failing) deps.log.info("heartbeat written again");
        failing = false;
      } catch (error) {
        // The database may be away for a moment: said once, tried again at the next beat.
        if (!failing) deps.log.warn({ err: coerceError(error).message }, "heartbeat or lease sweep failed");
        failing = true;
      } finally {
        running = undefined;
      }
    })();
    return running;
  };
  const timer = setInterval(beat, heartbeatEveryMs(deps.leaseSeconds));
  timer.unref();
  return {
    beat,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

/**
 * Marks every worker whose lease has run out and releases its jobs, in one transaction on the
 * database's clock (sweepExpiredWorkers): two sweepers at once release each dead worker once.
 */
export async function sweepExpired(deps: Omit<LeaseDeps, "row">, selfId: string): Promise<number> {
  const expired = await sweepExpiredWorkers(deps.sql, deps.leaseSeconds, selfId);
  for (const worker of expired) {
    deps.log.warn(
      { worker: worker.id, leaseSeconds: deps.leaseSeconds },
      "a worker's lease ran out: its jobs are released for the others",
    );
  }
  return expired.length;
}
