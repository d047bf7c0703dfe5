/**
 * The run lock: one process at a time calls the registry, so two never share (and together
 * exceed) the request budget. A session-level advisory lock on a connection of its own; it is
 * released by Postgres itself if the process dies.
 *
 * The lock lives exactly as long as its session. The session is watched from its own connection:
 * the connection closing (a terminated backend, a fast stop, a failover) or a keep-alive query on
 * it failing means the lock is gone, and `signal` aborts at once so the run stops starting
 * requests. This is why a pooler in transaction mode (PgBouncer `pool_mode = transaction`) cannot
 * carry the lock's connection: it hands the session to others between statements.
 */
import { setMaxListeners } from "node:events";
import postgres from "postgres";
import { LockHeldError, RegwatchError } from "../errors.ts";
import { accountLockKeys, accountLockMatch } from "./account-lock.ts";
import type { Fragment, Sql, Tx } from "./connect.ts";
import { classifyDatabaseError, DatabaseUnavailableError } from "./db-errors.ts";
import { currentRun, failAbandonedRuns } from "./runs.ts";

const RUN_LOCK = 0x72_77_72_6e; // "rwrn"

/** The keep-alive's period: a lost lock is noticed within this long even when nothing else asks. */
export const LOCK_KEEPALIVE_MS = 10_000;
/** How long the check "is the database still there" waits when the lock's session closed. */
const PROBE_MS = 5000;

export interface RunLock {
  release(): Promise<void>;
  /**
   * Throws unless the lock's own session still answers (a keep-alive query on it). A dropped
   * connection takes a session lock with it silently, so writers check before each commit.
   */
  verify(sql?: Sql | Tx): Promise<void>;
  /**
   * The same check as a boolean SQL expression, for a statement that commits on its own: the
   * lock is granted to the locking backend, identified by pid and start time (a pid reused by a
   * later backend has a later start).
   */
  heldSql(sql: Sql | Tx): Fragment;
  /** Aborted, with the reason (RunLockLostError or DatabaseUnavailableError), once the lock is lost. */
  readonly signal: AbortSignal;
}

/** The run lock was lost (its database connection dropped): another process may now run. */
export class RunLockLostError extends RegwatchError {
  constructor(detail = "its database connection dropped") {
    super("LOCK_LOST", `the run lock was lost (${detail}); stopping so two runs never overlap`);
  }
}

export interface AcquireOptions {
  /** Seconds to keep trying before giving up; 0 fails at once. */
  waitSeconds?: number;
  sleep?: (ms: number) => Promise<void>;
  /** Period of the keep-alive query on the lock's session (LOCK_KEEPALIVE_MS). */
  keepAliveMs?: number;
}

/** Takes the lock or throws LockHeldError (exit 75) naming the run that holds it. */
export async function acquireRunLock(sql: Sql, options: AcquireOptions = {}): Promise<RunLock> {
  const lost = new AbortController();
  setMaxListeners(0, lost.signal); // every window, file and request of the run listens to it
  let released = false;
  // A client of its own rather than a reserved pool connection: postgres.js crashes the process
  // when a reserved connection whose backend was terminated is used again, and the lock's
  // connection is exactly the one an administrator or a failover may cut. It never recycles its
  // connection on its own (max_lifetime, idle_timeout): that would drop the lock with it.
  const own = postgres({
    ...(sql.options as unknown as postgres.Options<Record<string, never>>),
    max: 1,
    max_lifetime: null,
    idle_timeout: 0,
    onclose: () => {
      if (holder && !released) void lose(undefined);
    },
  });
  // The backend's start to the microsecond, as text: a JS Date would drop the microseconds.
  let holder: { pid: number; since: string } | undefined;
  const lose = async (cause: unknown) => {
    if (lost.signal.aborted || released) return;
    // The session is gone: say whether the database is gone too, which is what the user must fix.
    let reason: Error = new RunLockLostError();
    const gone = classifyDatabaseError(cause);
    if (gone instanceof DatabaseUnavailableError) reason = gone;
    else {
      const probe = await answersWithin(sql, PROBE_MS);
      if (probe instanceof DatabaseUnavailableError) reason = probe;
    }
    if (!released) lost.abort(reason);
  };
  const deadline = Date.now() + (options.waitSeconds ?? 0) * 1000;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  try {
    for (;;) {
      const [row] = await own<{ ok: boolean; pid: number; since: string }[]>`
        select pg_try_advisory_lock(${accountLockKeys(own as unknown as Sql, RUN_LOCK)}) as ok, pg_backend_pid() as pid,
               (select extract(epoch from backend_start)::text
                from pg_stat_activity where pid = pg_backend_pid()) as since`;
      if (row?.ok) {
        holder = { pid: row.pid, since: row.since };
        break;
      }
      if (Date.now() >= deadline) throw new LockHeldError(await describeHolder(sql));
      await sleep(Math.min(1000, Math.max(50, deadline - Date.now())));
    }
    // Holding the lock, any run still marked running was left by a process that died. If that
    // write fails (a read-only database), the lock's own client must not keep the process alive.
    await failAbandonedRuns(sql);
  } catch (error) {
    released = true;
    await own.end({ timeout: 1 }).catch(() => {});
    throw error;
  }
  const session = holder;
  const keepAlive = async () => {
    if (released || lost.signal.aborted) return;
    try {
      const [row] = await own<{ pid: number }[]>`select pg_backend_pid() as pid`;
      // Another backend answering means the client reconnected: the locking session is gone.
      if (row?.pid !== session.pid) await lose(undefined);
    } catch (error) {
      await lose(error);
    }
  };
  const timer = setInterval(() => void keepAlive(), options.keepAliveMs ?? LOCK_KEEPALIVE_MS);
  timer.unref();
  const heldSql = (conn: Sql | Tx): Fragment => conn`exists (
      select 1 from pg_locks l join pg_stat_activity a on a.pid = l.pid
      where l.locktype = 'advisory' and l.granted and l.pid = ${session.pid}
        and extract(epoch from a.backend_start) = ${session.since}::numeric
        and ${accountLockMatch(conn, RUN_LOCK)}
    )`;
  return {
    heldSql,
    signal: lost.signal,
    async verify() {
      if (!lost.signal.aborted) await keepAlive();
      if (lost.signal.aborted) throw lost.signal.reason as Error;
    },
    async release() {
      if (released) return;
      released = true;
      clearInterval(timer);
      // Ending the session releases its lock; if the connection is already gone, so is the lock.
      await own.end({ timeout: 5 }).catch(() => {});
    },
  };
}

/** Undefined when the database answers a trivial query within `ms`, else why not. */
async function answersWithin(sql: Sql, ms: number): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const silent = new Promise<unknown>((resolve) => {
    timer = setTimeout(
      () =>
        resolve(
          new DatabaseUnavailableError(`database problem: the database did not answer within ${ms / 1000} s`),
        ),
      ms,
    );
  });
  const answer = sql`select 1`.then(
    () => undefined,
    (error: unknown) => classifyDatabaseError(error),
  );
  try {
    return await Promise.race([answer, silent]);
  } finally {
    clearTimeout(timer);
  }
}

async function describeHolder(sql: Sql): Promise<string> {
  const holder = await currentRun(sql).catch(() => undefined);
  const who = holder
    ? `run ${holder.id} (${holder.kind}, ${holder.trigger}) started ${holder.startedAt.toISOString()} by pid ${holder.pid ?? "?"} on ${holder.host ?? "?"}`
    : "another regwatch process";
  return `${who} holds the run lock; try again later or pass --wait SECONDS`;
}
