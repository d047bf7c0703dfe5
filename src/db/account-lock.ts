/**
 * Advisory locks that belong to one account. Each account's tables live in a schema of their own
 * and a session's search_path is exactly that schema, so the lock's second key is derived from it:
 * two accounts never wait on each other, and two sessions of one account always meet.
 */
import type { Fragment, Sql, Tx } from "./connect.ts";

/** The two int4 keys `pg_advisory_*lock(key, account)` takes, for the session's own account. */
export function accountLockKeys(conn: Sql | Tx, key: number): Fragment {
  return conn`${key}::int, hashtext(current_setting('search_path'))`;
}

/** The same lock as it shows in pg_locks (two int4 keys: classid, objid, objsubid 2). */
export function accountLockMatch(conn: Sql | Tx, key: number, alias = "l"): Fragment {
  return conn`${conn(alias)}.classid = ${key}::int::oid
    and ${conn(alias)}.objid = hashtext(current_setting('search_path'))::oid
    and ${conn(alias)}.objsubid = 2`;
}
