/**
 * The run lock: one process at a time calls the registry, so two never share (and together
 * exceed) the request budget. A session-level advisory lock on a reserved connection; it is
 * released by Postgres itself if the process dies.
 */
import { LockHeldError, RegwatchError } from "../errors.ts";
import type { Sql, Tx } from "./connect.ts";
import { currentRun, failAbandonedRuns } from "./runs.ts";

const RUN_LOCK = 0x72_77_72_6e; // "rwrn"

export interface RunLock {
  release(): Promise<void>;
  /**
   * Throws unless the lock is still held by this process's locking session. A dropped connection
   * takes a session lock with it silently, so writers check before each commit.
   */
  verify(sql: Sql | Tx): Promise<void>;
}

/** The run lock was lost (its connection dropped): another process may now run. */
export class RunLockLostError extends RegwatchError {
  constructor() {
    super(
      "LOCK_LOST",
      "the run lock was lost (its database connection dropped); stopping so two runs never overlap",
    );
  }
}

export interface AcquireOptions {
  /** Seconds to keep trying before giving up; 0 fails at once. */
  waitSeconds?: number;
  sleep?: (ms: number) => Promise<void>;
}

/** Takes the lock or throws LockHeldError (exit 75) naming the run that holds it. */
export async function acquireRunLock(sql: Sql, options: AcquireOptions = {}): Promise<RunLock> {
  const reserved = await sql.reserve();
  const deadline = Date.now() + (options.waitSeconds ?? 0) * 1000;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  try {
    for (;;) {
      const [row] = await reserved<{ ok: boolean }[]>`select pg_try_advisory_lock(${RUN_LOCK}) as ok`;
      if (row?.ok) break;
      if (Date.now() >= deadline) throw new LockHeldError(await describeHolder(sql));
      await sleep(Math.min(1000, Math.max(50, deadline - Date.now())));
    }
  } catch (error) {
    reserved.release();
    throw error;
  }
  const [who] = await reserved<{ pid: number }[]>`select pg_backend_pid() as pid`;
  const holderPid = who!.pid;
  // Holding the lock, any run still marked running was left by a process that died.
  await failAbandonedRuns(sql);
  let released = false;
  return {
    async verify(conn) {
      // A single bigint advisory key shows in pg_locks as classid (high half), objid (low half), objsubid 1.
      const [row] = await conn<{ held: boolean }[]>`
        select exists (
          select 1 from pg_locks
          where locktype = 'advisory' and granted and pid = ${holderPid}
            and classid = 0 and objid::bigint = ${RUN_LOCK} and objsubid = 1
        ) as held`;
      if (!row?.held) throw new RunLockLostError();
    },
    async release() {
      if (released) return;
      released = true;
      try {
        await reserved`select pg_advisory_unlock(${RUN_LOCK})`;
      } catch {
        // The connection is gone, and the session lock with it: nothing is left to release.
      } finally {
        reserved.release();
      }
    },
  };
}

async function describeHolder(sql: Sql): Promise<string> {
  const holder = await currentRun(sql).catch(() => undefined);
  const who = holder
    ? `run ${holder.id} (${holder.kind}, ${holder.trigger}) started ${holder.startedAt.toISOString()} by pid ${holder.pid ?? "?"} on ${holder.host ?? "?"}`
    : "another regwatch process";
  return `${who} holds the run lock; try again later or pass --wait SECONDS`;
}
