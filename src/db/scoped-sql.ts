/**
 * One account's view of a shared pool. Statements name their tables without a schema (the search
 * path decides where they are), and a pool serves many accounts, so the schema cannot be a
 * property of the connection: every statement runs in a transaction of its own that starts with
 * `set local search_path` (set_config(..., true)), and `begin` does the same for a transaction's
 * body. Nothing outlives the transaction, so a connection handed to another account next (by this
 * pool, or by PgBouncer in transaction mode between transactions) carries nothing of this one.
 *
 *   statement  → [begin + set_config] → statement → commit, written back to back (one round trip)
 *   cursor, COPY → begin → set_config + statement → … → commit (the commit waits for its last row)
 *   begin(fn)  → begin → set_config + fn(tx)'s first statement → … → commit
 *
 * A bare statement is the common case (most of a sync's), so it costs one round trip as it would
 * without a schema to set: the server runs the four in order, and the statement's own failure
 * turns the commit into a rollback. The caller's promise settles after the commit: a statement
 * whose commit failed is not reported as done. Cursors and COPY hold their connection between
 * messages, so nothing may be queued behind them: their commit is sent when they end.
 */
import type postgres from "postgres";

type Pool = postgres.Sql;
type TxSql = postgres.TransactionSql;

/** What postgres.js keeps on a query object that this module relies on (src/query.js). */
interface QueryInternals {
  handler: Handler;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}
type Handler = ((query: QueryInternals) => void) & { debug?: unknown };

const SCHEMA_NAME = /^[a-z][a-z0-9_]{0,62}$/;

function isQuery(value: unknown): value is QueryInternals {
  return value instanceof Promise && typeof (value as Partial<QueryInternals>).handler === "function";
}

/**
 * The statement that puts a transaction in `schema` (a name SCHEMA_NAME has checked, so it is
 * written into the text: without a parameter it is never described first, which would hold back
 * what follows it on the connection).
 */
function setSchema(tx: TxSql, schema: string): postgres.PendingQuery<postgres.Row[]> {
  return tx.unsafe(`select set_config('search_path', '${schema}', true)`);
}

/**
 * Sends a query built on a connection's Sql now, in the order of the calls (postgres.js itself
 * sends a query a microtask after it is awaited). Marked as sent, so that awaiting it later does
 * not send it twice.
 */
function sendNow<Q>(built: Q): Q {
  const query = built as unknown as QueryInternals & { executed: boolean };
  query.executed = true;
  query.handler(query);
  return built;
}

/**
 * Sends `set_config` and then `query` on the transaction's connection, back to back (one round
 * trip). The query runs through the transaction's handler (taken from the set_config query), so
 * the caller's own query object, with its cursor, forEach or values mode, is what runs.
 */
function sendAfterSchema(tx: TxSql, schema: string, query: QueryInternals): void {
  const set = sendNow(setSchema(tx, schema)) as unknown as QueryInternals;
  set.handler(query);
}

/** The resolve and reject postgres.js has given a query last (a cursor gives new ones at each step). */
interface Settlers {
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Holds back a query's settling: whatever postgres.js calls as its resolve or reject is reported
 * to `onSettle` instead, and the caller's functions stay reachable through the returned object.
 */
function deferSettle(query: QueryInternals, onSettle: (ok: boolean, value: unknown) => void): Settlers {
  const current: Settlers = { resolve: query.resolve, reject: query.reject };
  for (const key of ["resolve", "reject"] as const) {
    Object.defineProperty(query, key, {
      configurable: true,
      get: () => (value: unknown) => onSettle(key === "resolve", value),
      set: (next: (value: unknown) => void) => {
        current[key] = next;
      },
    });
  }
  return current;
}

/** A query whose settling is held back: `ran` settles when postgres.js is done with it. */
function held(query: QueryInternals) {
  let seen: { ok: boolean; value: unknown } | undefined;
  let settled: () => void = () => {};
  const ran = new Promise<void>((resolve) => {
    settled = resolve;
  });
  const caller = deferSettle(query, (ok, value) => {
    seen = { ok, value };
    settled();
  });
  return { caller, ran, seen: () => seen };
}

/** Whether the connection must wait for `query`'s end before anything else is sent on it. */
function holdsConnection(query: QueryInternals & { cursorFn?: unknown; streaming?: boolean }): boolean {
  return Boolean(query.cursorFn || query.streaming);
}

/** A bare statement: begin, schema, statement and commit written at once on a reserved connection. */
async function runPipelined(pool: Pool, schema: string, query: QueryInternals): Promise<void> {
  const { caller, ran, seen } = held(query);
  let connection: postgres.ReservedSql;
  try {
    connection = await pool.reserve();
  } catch (error) {
    caller.reject(error);
    return;
  }
  try {
    // One simple-protocol message for both (the name is checked, see setSchema).
    const open = sendNow(connection.unsafe(`begin; select set_config('search_path', '${schema}', true)`));
    (open as unknown as QueryInternals).handler(query);
    // After a failed statement the server answers this commit with a rollback, not an error.
    const commit = sendNow(connection.unsafe("commit"));
    const failure = (error: unknown) => ({ error });
    const opened = open.then(() => undefined, failure);
    const committed = commit.then(() => undefined, failure);
    const [openFailed, , commitFailed] = await Promise.all([opened, ran, committed]);
    const outcome = seen();
    if (openFailed) caller.reject(openFailed.error);
    else if (outcome && !outcome.ok) caller.reject(outcome.value);
    else if (commitFailed) caller.reject(commitFailed.error);
    else caller.resolve(outcome?.value);
  } finally {
    connection.release();
  }
}

/** A cursor or COPY: in a transaction whose commit is sent once the statement has ended. */
function runHeld(pool: Pool, schema: string, query: QueryInternals): void {
  const { caller, ran, seen } = held(query);
  pool
    .begin(async (tx) => {
      sendAfterSchema(tx, schema, query);
      await ran;
      // A failed statement rolls its transaction back; its error reaches the caller below.
      const outcome = seen();
      if (outcome && !outcome.ok) throw outcome.value;
    })
    .then(
      () => caller.resolve(seen()?.value),
      (error: unknown) => {
        const outcome = seen();
        caller.reject(outcome && !outcome.ok ? outcome.value : error);
      },
    );
}

function scopedHandler(pool: Pool, schema: string, original: Handler): Handler {
  const handler: Handler = (query) => {
    if (holdsConnection(query)) runHeld(pool, schema, query);
    else void runPipelined(pool, schema, query);
  };
  handler.debug = original.debug;
  return handler;
}

/**
 * An Sql bound to `schema` over `pool` (whose connections carry no search_path of their own).
 * Builders (identifiers, json, arrays, fragments) are the pool's; statements and transactions
 * run as the module comment says.
 */
export function scopedSql(pool: Pool, schema: string): Pool {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`"${schema}" is not a schema name regwatch uses`);
  const bind = <T>(built: T): T => {
    if (isQuery(built)) built.handler = scopedHandler(pool, schema, built.handler);
    return built;
  };
  const begin = (...args: unknown[]) => {
    const body = args.pop() as (tx: TxSql) => unknown;
    const wrapped = async (tx: TxSql) => {
      // Sent ahead of the body's first statement, not awaited before it: the connection runs
      // them in order, so the body is in its schema without a round trip of its own.
      const set = sendNow(setSchema(tx, schema));
      const result = body(tx);
      const value = await (Array.isArray(result) ? Promise.all(result) : result);
      await set;
      return value;
    };
    return (pool.begin as (...a: unknown[]) => Promise<unknown>)(...args, wrapped);
  };
  const unsafe = (...args: Parameters<Pool["unsafe"]>) => bind(pool.unsafe(...args));
  // A reserved connection is a session: its search_path is set for the session and reset when it
  // is given back. Through a pooler in transaction mode a reservation holds no server session, so
  // regwatch's own code never reserves (tests and tools that talk to Postgres directly may).
  const reserve = async () => {
    const reserved = await pool.reserve();
    await reserved`select set_config('search_path', ${schema}, false)`;
    const release = reserved.release;
    reserved.release = () => {
      void reserved`reset search_path`.catch(() => {}).finally(release);
    };
    return reserved;
  };
  return new Proxy(pool, {
    apply: (target, self, args) => bind(Reflect.apply(target, self, args)),
    get: (target, key, receiver) => {
      if (key === "begin") return begin;
      if (key === "unsafe") return unsafe;
      if (key === "reserve") return reserve;
      return Reflect.get(target, key, receiver);
    },
  });
}
