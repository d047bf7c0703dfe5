/**
 * One account's view of a shared pool. Statements name their tables without a schema (the search
 * path decides where they are), and a pool serves many accounts, so the schema cannot be a
 * property of the connection: every statement runs in a transaction of its own that starts with
 * `set local search_path` (set_config(..., true)), and `begin` does the same for a transaction's
 * body. Nothing outlives the transaction, so a connection handed to another account next (by this
 * pool, or by PgBouncer in transaction mode between transactions) carries nothing of this one.
 *
 *   statement  → begin → set_config + statement (pipelined) → commit → the caller's promise settles
 *   begin(fn)  → begin → set_config → fn(tx) → commit
 *
 * The caller's promise settles after the commit: a statement whose commit failed is not reported as
 * done. Cursors and `forEach` stream inside the transaction, which ends with their last row.
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

/** The statement that puts a transaction in `schema`. */
function setSchema(tx: TxSql, schema: string): postgres.PendingQuery<postgres.Row[]> {
  return tx`select set_config('search_path', ${schema}, true)`;
}

/**
 * Sends `set_config` and then `query` on the transaction's connection, back to back (one round
 * trip). The query runs through the transaction's handler (taken from the set_config query), so
 * the caller's own query object, with its cursor, forEach or values mode, is what runs.
 */
function sendAfterSchema(tx: TxSql, schema: string, query: QueryInternals): void {
  const set = setSchema(tx, schema) as unknown as QueryInternals & { executed: boolean };
  // Marked as sent, so that awaiting it (the transaction does, to catch its error) does not send it twice.
  set.executed = true;
  set.handler(set);
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

function scopedHandler(pool: Pool, schema: string, original: Handler): Handler {
  const handler: Handler = (query) => {
    let seen: { ok: boolean; value: unknown } | undefined;
    let settled: () => void = () => {};
    const ran = new Promise<void>((resolve) => {
      settled = resolve;
    });
    const caller = deferSettle(query, (ok, value) => {
      seen = { ok, value };
      settled();
    });
    pool
      .begin(async (tx) => {
        sendAfterSchema(tx, schema, query);
        await ran;
        // A failed statement rolls its transaction back; its error reaches the caller below.
        if (seen && !seen.ok) throw seen.value;
      })
      .then(
        () => caller.resolve(seen?.value),
        (error: unknown) => caller.reject(seen && !seen.ok ? seen.value : error),
      );
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
      await setSchema(tx, schema);
      const result = body(tx);
      return Array.isArray(result) ? Promise.all(result) : result;
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
