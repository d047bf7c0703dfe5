/**
 * The run lock: one process at a time calls the registry for an account, so two never share (and
 * together exceed) the request budget. The lock is a lease row (`run_lease`, one per schema) on
 * the database's clock, taken by an upsert that succeeds only when the row is absent or expired,
 * and renewed by its holder every `renewMs` (a third of the lease). It needs no session of its own,
 * so it passes through a pooler in transaction mode (PgBouncer `pool_mode = transaction`) and the
 * pool it runs on may serve other accounts between statements.
 *
 *   take: upsert where expired
 *   renew: update where holder = token and not expired → no row: lost (RunLockLostError)
 *   release: delete where holder = token
 *
 * Only the lease's expiry says whether its holder lives: a crashed holder stops renewing and its
 * lease is free `leaseSeconds` after its last renewal (20 to 30 s after the crash). The row's pid
 * and host only name the holder: containers may share a host name and a pid that means nothing
 * in another's pid namespace, so neither ever frees a lease. A holder that cannot renew (the
 * database gone) aborts `signal` with the reason, so the run stops starting requests.
 */
import { randomUUID } from "node:crypto";
import { setMaxListeners } from "node:events";
import { hostname } from "node:os";
import type { Fragment, Sql, Tx } from "../db/connect.ts";
import { classifyDatabaseError, DatabaseUnavailableError } from "../db/db-errors.ts";
import { LockHeldError, RegwatchError } from "../errors.ts";
import { currentRun, failAbandonedRuns } from "./runs.ts";

/** How long a lease lasts without renewal: a crashed holder's lock is free this long after its end. */
export const LEASE_SECONDS = 30;

export interface RunLock {
  /**
   * Stops renewing and gives the lease back: true once its row is gone; false when the database
   * could not be reached, the lease then ending at its expiry or at a later call that reaches it.
   */
  release(): Promise<boolean>;
  /**
   * Renews the lease (on `sql`, a transaction's connection when given, so a commit and the lease's
   * renewal go together) and throws unless it is still held.
   */
  verify(sql?: Sql | Tx): Promise<void>;
  /** The same check as a boolean SQL expression, for a statement that commits on its own. */
  heldSql(sql: Sql | Tx): Fragment;
  /** Aborted, with the reason (RunLockLostError or DatabaseUnavailableError), once the lock is lost. */
  readonly signal: AbortSignal;
}

/** The run lock was lost (its lease expired or was taken): another process may now run. */
export class RunLockLostError extends RegwatchError {
  constructor(detail = "its lease could not be renewed in time") {
    super("LOCK_LOST", `the run lock was lost (${detail}); stopping so two runs never overlap`);
  }
}

export interface AcquireOptions {
  /** Seconds to keep trying before giving up; 0 fails at once. */
  waitSeconds?: number;
  /** Told once, with who holds the lock, when the lock is held and the wait begins. */
  onWait?: (holder: string) => void;
  sleep?: (ms: number) => Promise<void>;
  /** The lease's length (LEASE_SECONDS); it is renewed every third of it. */
  leaseSeconds?: number;
  /** Period of the renewal; a third of the lease unless given. */
  renewMs?: number;
}

/** Takes the lease: false while another holder's lease has not expired, whoever that holder is. */
async function take(sql: Sql, token: string, leaseSeconds: number): Promise<boolean> {
  const rows = await sql`
    insert into ${sql.t.run_lease} (id, holder, pid, host, taken_at, renewed_at, expires_at)
    values (1, ${token}, ${process.pid}, ${hostname()}, clock_timestamp(), clock_timestamp(),
            clock_timestamp() + make_interval(secs => ${leaseSeconds}))
    on conflict (id) do update
      set holder = excluded.holder, pid = excluded.pid, host = excluded.host, taken_at = excluded.taken_at,
          renewed_at = excluded.renewed_at, expires_at = excluded.expires_at
      where run_lease.expires_at <= clock_timestamp()
    returning id`;
  return rows.length === 1;
}

type CloseListener = () => void;
interface PoolOptions {
  onclose?: (id: number) => void;
}
const closeListeners = new WeakMap<PoolOptions, Set<CloseListener>>();

/**
 * Calls `listener` whenever a connection of `sql`'s pool closes (postgres.js reads its `onclose`
 * option at each close): a terminated backend or a stopped server is then noticed at once, not at
 * the next renewal. Returns the function that stops listening.
 */
function onPoolClose(sql: Sql, listener: CloseListener): () => void {
  const options = (sql as unknown as { options?: PoolOptions }).options;
  if (!options) return () => {};
  let listeners = closeListeners.get(options);
  if (!listeners) {
    const set = new Set<CloseListener>();
    listeners = set;
    closeListeners.set(options, set);
    const previous = options.onclose;
    options.onclose = (id) => {
      previous?.(id);
      for (const l of set) l();
    };
  }
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Takes the lock or throws LockHeldError (exit 75) naming the run that holds it. */
export async function acquireRunLock(sql: Sql, options: AcquireOptions = {}): Promise<RunLock> {
  const lost = new AbortController();
  setMaxListeners(0, lost.signal); // every window, file and request of the run listens to it
  const leaseSeconds = options.leaseSeconds ?? LEASE_SECONDS;
  const token = randomUUID();
  const deadline = Date.now() + (options.waitSeconds ?? 0) * 1000;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  let waiting = false;
  for (;;) {
    if (await take(sql, token, leaseSeconds)) break;
    if (Date.now() >= deadline) throw new LockHeldError(await describeHolder(sql));
    if (options.onWait && !waiting) options.onWait((await whoHolds(sql)).who);
    waiting = true;
    await sleep(Math.min(1000, Math.max(50, deadline - Date.now())));
  }
  let released = false;
  let givenBack = false;
  try {
    // Holding the lock, any run still marked running was left by a process that died.
    await failAbandonedRuns(sql);
  } catch (error) {
    released = true;
    await sql`delete from ${sql.t.run_lease} where holder = ${token}`.catch(() => {});
    throw error;
  }
  const lose = (reason: Error) => {
    if (!released && !lost.signal.aborted) lost.abort(reason);
  };
  const renew = async (conn: Sql | Tx = sql) => {
    if (released || lost.signal.aborted) return;
    try {
      const rows = await conn`
        update ${conn.t.run_lease}
        set renewed_at = clock_timestamp(), expires_at = clock_timestamp() + make_interval(secs => ${leaseSeconds})
        where holder = ${token} and expires_at > clock_timestamp()
        returning id`;
      if (rows.length === 0) lose(new RunLockLostError("its lease expired or was taken over"));
    } catch (error) {
      const gone = classifyDatabaseError(error);
      // A renewal that fails while the database answers (a transaction's own error) says nothing
      // of the lease; the database gone does, and so does a lease past its end.
      if (gone instanceof DatabaseUnavailableError) lose(gone);
      else if (!(await stillHeld(sql, token)))
        lose(new RunLockLostError("its lease expired or was taken over"));
    }
  };
  let renewing: Promise<void> | undefined;
  const timer = setInterval(
    () => {
      renewing ??= renew().finally(() => {
        renewing = undefined;
      });
    },
    options.renewMs ?? (leaseSeconds * 1000) / 3,
  );
  timer.unref();
  // A connection of the pool closing may mean the database went away: renew now to find out.
  const stopListening = onPoolClose(sql, () => {
    renewing ??= renew().finally(() => {
      renewing = undefined;
    });
  });
  return {
    signal: lost.signal,
    heldSql: (conn) =>
      conn`exists (select 1 from ${conn.t.run_lease} where holder = ${token} and expires_at > clock_timestamp())`,
    async verify(conn) {
      await renew(conn);
      if (lost.signal.aborted) throw lost.signal.reason as Error;
    },
    async release() {
      if (!released) {
        released = true;
        clearInterval(timer);
        stopListening();
        await renewing?.catch(() => {});
      }
      if (!givenBack) {
        // Only this holder's row: a lease taken over since is someone else's token.
        givenBack = await sql`delete from ${sql.t.run_lease} where holder = ${token}`.then(
          () => true,
          () => false,
        );
      }
      return givenBack;
    },
  };
}

async function stillHeld(sql: Sql, token: string): Promise<boolean> {
  const rows = await sql`
    select 1 from ${sql.t.run_lease} where holder = ${token} and expires_at > clock_timestamp()`.catch(
    () => [],
  );
  return rows.length === 1;
}

async function describeHolder(sql: Sql): Promise<string> {
  const { who, expiry } = await whoHolds(sql);
  return `${who} holds the run lock; try again later or pass --wait SECONDS${expiry}`;
}

/** Who holds the lock (its run, else its lease's process), and when the lease ends. */
async function whoHolds(sql: Sql): Promise<{ who: string; expiry: string }> {
  const holder = await currentRun(sql).catch(() => undefined);
  const [lease] = await sql<{ pid: number | null; host: string | null; left: number }[]>`
    select pid, host, ceil(extract(epoch from expires_at - clock_timestamp()))::int as left
    from ${sql.t.run_lease}`.catch(() => []);
  const who = holder
    ? `run ${holder.id} (${holder.kind}, ${holder.trigger}) started ${holder.startedAt.toISOString()} by pid ${holder.pid ?? "?"} on ${holder.host ?? "?"}`
    : lease
      ? `pid ${lease.pid ?? "?"} on ${lease.host ?? "?"}`
      : "another regwatch process";
  const expiry = lease ? ` (its lease ends in ${Math.max(0, lease.left)} s unless its holder renews it)` : "";
  return { who, expiry };
}
