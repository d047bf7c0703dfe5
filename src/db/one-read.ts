/**
 * Several reads that belong together in one read-only transaction, without JIT compilation: one
 * begin and one commit for all of them, one state of the database, and their statements
 * pipelined on one connection. JIT is off because what these reads cost is a few milliseconds of execution, and a
 * plan whose estimate passes jit_above_cost (statistics not yet gathered after a bulk load) would
 * spend longer compiling than running.
 */
import type { Sql } from "./connect.ts";
import { countDaysIn } from "./time-zone.ts";

export async function inOneRead<T>(
  sql: Sql,
  fn: (sql: Sql) => Promise<T>,
  settings: { timeZone?: string } = {},
): Promise<T> {
  return sql.begin("read only", async (tx) => {
    // Sent ahead of fn's first statement and not waited for apart: a connection runs its
    // statements in the order they were sent.
    const noJit = tx`set local jit = off`.execute();
    // The day of a timestamp (`::date`) in this zone, for this transaction only.
    const zone = settings.timeZone === undefined ? null : countDaysIn(tx, settings.timeZone);
    // A transaction's handle runs statements like the pool's; only begin/end are missing, which fn does not use.
    const result = await fn(tx as unknown as Sql);
    await noJit;
    await zone;
    return result;
  }) as Promise<T>;
}
