/**
 * Transaction-scoped advisory locks that belong to one account. Each account's tables live in a
 * schema of their own and a transaction's search_path is exactly that schema, so the lock's second
 * key is derived from it: two accounts never wait on each other, and two transactions of one
 * account always meet. Transaction-scoped only: a session lock cannot pass through a pooler in
 * transaction mode (the run lock is a lease row, lock.ts).
 */
import type { Fragment, Sql, Tx } from "./connect.ts";

/** The two int4 keys `pg_advisory_xact_lock(key, account)` takes, for the transaction's own account. */
export function accountLockKeys(conn: Sql | Tx, key: number): Fragment {
  return conn`${key}::int, hashtext(current_setting('search_path'))`;
}
