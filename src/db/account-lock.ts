/**
 * Transaction-scoped advisory locks that belong to one account. Each account's tables live in a
 * schema of their own, so the lock's second key is derived from the schema's name (the same key as
 * when it was read from a search_path holding that one schema): two accounts never wait on each other, and two transactions of one
 * account always meet. Transaction-scoped only: a session lock cannot pass through a pooler in
 * transaction mode (the run lock is a lease row, lock.ts).
 */
import type { Fragment, Sql, Tx } from "./connect.ts";

/** The two int4 keys `pg_advisory_xact_lock(key, account)` takes, for the transaction's own account. */
export function accountLockKeys(conn: Sql | Tx, key: number): Fragment {
  return conn`${key}::int, hashtext(${conn.schema}::text)`;
}
