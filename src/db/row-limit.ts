import type { Sql } from "./connect.ts";

/**
 * `limit N` written into the statement rather than sent as a parameter. postgres.js sends a
 * statement without parameters (parse, bind, execute) in one go, so several of them pipeline on
 * one connection; a parameterised statement not yet prepared on that connection is first
 * described by the server, and the statements queued behind it wait for that round trip.
 * `regwatch status` reads a dozen small results on a fresh connection, where that adds up.
 */
export function rowLimit(sql: Sql, n: number) {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`row limit ${n} is not a whole number`);
  return sql.unsafe(`limit ${n}`);
}
