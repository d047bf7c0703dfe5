/**
 * The zone in which a transaction counts the day of a timestamp (`::date`, the views' and the
 * triggers' days): set for that transaction only. regwatch gives the registry's
 * (REGWATCH_REGISTRY_TZ) where days are compared with the registry's own.
 */
import type { Tx } from "./connect.ts";

/** Sets `timeZone` for the rest of the transaction `tx` runs; sent at once, resolved when done. */
export function countDaysIn(tx: Tx, timeZone: string): Promise<unknown> {
  return tx`select set_config('TimeZone', ${timeZone}, true)`.execute();
}
