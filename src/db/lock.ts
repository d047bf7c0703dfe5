/**
 * The run lock: one process at a time calls the registry, so two never share (and together
 * exceed) the request budget. A session-level advisory lock on a connection of its own; it is
 * released by Postgres itself if the process dies.
 */
import postgres from "postgres";
import { LockHeldError, RegwatchError } from "../errors.ts";
import type { Fragment, Sql, Tx } from "./connect.ts";
import { currentRun, failAbandonedRuns } from "./runs.ts";

const RUN_LOCK = 0x72_77_72_6e; // "rwrn"

export interface RunLock {
  release(): Promise<void>;
  /**
   * Throws unless the lock is still held by this process's locking session. A dropped connection
   * takes a session lock with it silently, so writers check before each commit.
   */
  verify(sql: Sql | Tx): Promise<void>;
  /** The same check as a boolean SQL expression, for a statement that commits on its own. */
  heldSql(sql: Sql | Tx): Fragment;
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
  // A client of its own rather than a reserved pool connection: postgres.js crashes the process
  // when a reserved connection whose backend was terminated is used again, and the lock's
  // connection is exactly the one an administrator or a failover may cut.
  const own = postgres({ ...(sql.options as unknown as postgres.Options<Record<string, never>>), max: 1 });
  const deadline = Date.now() + (options.waitSeconds ?? 0) * 1000;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  let holderPid: number;
  try {
    for (;;) {
      const [row] = await own<{ ok: boolean; pid: number }[]>`
        select pg_try_advisory_lock(${RUN_LOCK}) as ok, pg_backend_pid() as pid`;
      if (row?.ok) {
        holderPid = row.pid;
        break;
      }
      if (Date.now() >= deadline) throw new LockHeldError(await describeHolder(sql));
      await sleep(Math.min(1000, Math.max(50, deadline - Date.now())));
    }
  } catch (error) {
    await own.end({ timeout: 1 }).catch(() => {});
    throw error;
  }
  // Holding the lock, any run still marked running was left by a process that died. If that
  // write fails (a read-only database), the lock's own client must not keep the process alive.
  try {
    await failAbandonedRuns(sql);
  } catch (error) {
    await own.end({ timeout: 1 }).catch(() => {});
    throw error;
  }
  let released = false;
  // A single bigint advisory key shows in pg_locks as classid (high half), objid (low half), objsubid 1.
  const heldSql = (conn: Sql | Tx): Fragment => conn`exists (
      select 1 from pg_locks
      where locktype = 'advisory' and granted and pid = ${holderPid}
        and classid = 0 and objid::bigint = ${RUN_LOCK} and objsubid = 1
    )`;
  return {
    heldSql,
    async verify(conn) {
      const [row] = await conn<{ held: boolean }[]>`select ${heldSql(conn)} as held`;
      if (!row?.held) throw new RunLockLostError();
    },
    async release() {
      if (released) return;
      released = true;
      // Ending the session releases its lock; if the connection is already gone, so is the lock.
      await own.end({ timeout: 5 }).catch(() => {});
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
