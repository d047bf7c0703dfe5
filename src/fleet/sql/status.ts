/**
 * Reads of one account's schema for the fleet's views (`status --fleet`, the daemon's metrics and
 * its scheduler), each made in a read-only transaction whose statements name that account's schema
 * (scoped-sql.ts), on a connection the caller already holds (no new session per account).
 */
import type { Sql } from "../../db/connect.ts";
import { scopedTx } from "../../db/scoped-sql.ts";

/**
 * Runs `body` in a read-only transaction seen as `schema`'s (its `t` names that schema). The
 * statements of src/db/ take an `Sql`; the transaction's handle runs them the same way.
 */
export async function withAccountSchema<T>(
  sql: Sql,
  schema: string,
  body: (sql: Sql) => Promise<T>,
): Promise<T> {
  const result = await sql.begin("read only", async (tx) => [
    await body(scopedTx(tx, schema) as unknown as Sql),
  ]);
  return result[0] as T;
}

/**
 * True when the account has an alert message a delivery pass would send now: pending, its backoff
 * over (on the scheduler's clock, as it was set), and not leased by a deliverer (on the database's
 * clock, as leases are). One indexed look, for the scheduler's `deliver` jobs.
 */
export async function deliveriesDue(sql: Sql, now: Date): Promise<boolean> {
  const [row] = await sql<{ due: boolean }[]>`
    select exists (
      select 1 from ${sql.t.alert_deliveries}
      where status = 'pending' and next_attempt_at <= ${now}
        and (lease_until is null or lease_until <= now())) as due`;
  return row?.due === true;
}

/** True when the job queue's schema (graphile-worker's) has been installed in this database. */
export async function queueSchemaInstalled(sql: Sql): Promise<boolean> {
  const [row] = await sql<{ installed: boolean }[]>`
    select to_regclass('graphile_worker.jobs') is not null as installed`;
  return row?.installed === true;
}
