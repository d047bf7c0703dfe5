/**
 * How the alert delivery passes fare, kept in one row (alert_delivery_health) that every process
 * delivering writes and `status`, `doctor`, the console and /metrics read: a pass that hit an
 * error of regwatch's own lengthens the streak of failed passes and leaves its error; a pass that
 * attempts a message without one ends the streak. Times are the database's clock.
 */
import type { Sql } from "../../db/connect.ts";

export interface DeliveryHealth {
  /** Passes failed since the last one that attempted a message cleanly; 0 while delivery works. */
  failuresInRow: number;
  /** Passes that ever failed. */
  failuresTotal: number;
  /** Start of the current streak; null when failuresInRow is 0. */
  failingSince: Date | null;
  lastFailedAt: Date | null;
  /** The last failed pass's first error, secrets scrubbed by the writer. */
  lastError: string | null;
  /** Messages the last failed pass charged a failed attempt (0: none, e.g. it failed before claiming). */
  lastFailureMessages: number;
  /** When the last streak ended. */
  recoveredAt: Date | null;
}

const columns = (sql: Sql) => sql`
  failures_in_row as "failuresInRow", failures_total::float8 as "failuresTotal",
  failing_since as "failingSince", last_failed_at as "lastFailedAt", last_error as "lastError",
  last_failure_messages as "lastFailureMessages", recovered_at as "recoveredAt"`;

/** The row, or null when no pass has failed yet. */
export async function deliveryHealth(sql: Sql): Promise<DeliveryHealth | null> {
  const [row] = await sql<DeliveryHealth[]>`
    select ${columns(sql)} from ${sql.t.alert_delivery_health} where id = 1`;
  return row ?? null;
}

/** One failed pass: `error` already scrubbed, `messages` how many it charged an attempt. */
export async function recordPassFailure(sql: Sql, error: string, messages: number): Promise<void> {
  await sql`
    insert into ${sql.t.alert_delivery_health} as h
      (id, failures_in_row, failures_total, failing_since, last_failed_at, last_error, last_failure_messages)
    values (1, 1, 1, now(), now(), ${error}, ${messages})
    on conflict (id) do update
    set failures_in_row = h.failures_in_row + 1, failures_total = h.failures_total + 1,
        failing_since = case when h.failures_in_row = 0 then now() else h.failing_since end,
        last_failed_at = now(), last_error = excluded.last_error,
        last_failure_messages = excluded.last_failure_messages`;
}

/**
 * A pass that ended without an error of its own ends the streak when it attempted a message, or
 * when the last failure held none (it failed before claiming: what failed then has run now). A
 * pass with nothing to send says nothing of a send that threw, so that streak stays. No write
 * while delivery works.
 */
export async function recordPassSuccess(sql: Sql, attempted: boolean): Promise<void> {
  await sql`
    update ${sql.t.alert_delivery_health}
    set failures_in_row = 0, failing_since = null, recovered_at = now()
    where id = 1 and failures_in_row > 0 and (${attempted} or last_failure_messages = 0)`;
}

export interface DeliveryTrouble extends DeliveryHealth {
  /** Messages waiting to be sent or retried. */
  pending: number;
  /** When the oldest of them was queued; null when none waits. */
  oldestPendingAt: Date | null;
}

/**
 * The row with the pending messages, only while passes fail (null otherwise): a single-row
 * lookup on a working install, so a page may ask it on every view.
 */
export async function deliveryTrouble(sql: Sql): Promise<DeliveryTrouble | null> {
  const [row] = await sql<DeliveryTrouble[]>`
    select ${columns(sql)},
           (select count(*)::int from ${sql.t.alert_deliveries} where status = 'pending') as pending,
           (select min(created_at) from ${sql.t.alert_deliveries} where status = 'pending') as "oldestPendingAt"
    from ${sql.t.alert_delivery_health} where id = 1 and failures_in_row > 0`;
  return row ?? null;
}
