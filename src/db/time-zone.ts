/**
 * Days of timestamps in a named zone: regwatch gives the registry's (REGWATCH_REGISTRY_TZ) wherever
 * a day is compared with the registry's own, either for a whole transaction (the views' and the
 * triggers' `::date`) or for one timestamp of a statement.
 */
import type { Fragment, Sql, Tx } from "./connect.ts";

/** Sets `timeZone` for the rest of the transaction `tx` runs; sent at once, resolved when done. */
export function countDaysIn(tx: Tx, timeZone: string): Promise<unknown> {
  return tx`select set_config('TimeZone', ${timeZone}, true)`.execute();
}

/** The day of `timestamp` (a timestamptz column or expression) in `timeZone`, as a SQL date. */
export function dayIn(sql: Sql | Tx, timestamp: Fragment, timeZone: string): Fragment {
  return sql`(${timestamp} at time zone ${timeZone})::date`;
}
