/**
 * The alert outbox: claiming a due message, reading what it reports, and recording each attempt.
 * A message is claimed with `for update skip locked` inside the transaction that records its
 * attempt, so two deliverers (the daemon and `alerts deliver`) never send the same row at once.
 */
import type { TransactionSql } from "postgres";
import type { Sql } from "./connect.ts";

/** A connection or a transaction: the outbox statements run inside the delivery transaction. */
export type Runner = Sql | TransactionSql;

export interface DeliveryRow {
  id: number;
  messageId: string;
  ruleId: number;
  ruleName: string;
  kind: "alert" | "digest";
  alertIds: number[];
  channel: "webhook" | "email" | "notify";
  target: string;
  attempts: number;
  payload: unknown;
  /** Day of the oldest change the message reports: its place in the outbox's order. */
  oldestChange: string;
  /**
   * An earlier message (in that order) to the same receiver about one of the same businesses is
   * still pending: this one must wait for it, so a receiver never hears a newer change first.
   */
  waitsForOlder: boolean;
}

/** A place in the outbox's order: day of the oldest change reported, then id. */
export interface OutboxPlace {
  oldestChange: string;
  id: number;
}

export const OUTBOX_START: OutboxPlace = { oldestChange: "-infinity", id: 0 };

export interface ClaimOptions {
  now: Date;
  /** Ignore the backoff: every pending message is due (operator's `alerts deliver`). */
  ignoreBackoff: boolean;
  /** Only messages after this place, so one pass tries each message at most once. */
  after: OutboxPlace;
}

/**
 * The next due message in the outbox's order: oldest change first, then the order messages were
 * queued in (a scan queues each rule's messages oldest change first). Each pending message has
 * one place, so the oldest pending message about a business to a receiver never waits for another.
 */
export async function claimDelivery(sql: Runner, options: ClaimOptions): Promise<DeliveryRow | undefined> {
  const [row] = await sql<DeliveryRow[]>`
    select d.id::int, d.message_id as "messageId", d.rule_id::int as "ruleId", r.name as "ruleName",
           d.kind, d.alert_ids::int[] as "alertIds", d.channel, d.target, d.attempts, d.payload,
           to_char(d.oldest_change, 'YYYY-MM-DD') as "oldestChange",
           -- Counted rather than tested with exists: exists is planned to stop at a first match
           -- and then reads every pending message; a count looks up the business's messages.
           (select count(*) from regwatch.alert_deliveries e
            where e.tax_ids && d.tax_ids and e.status = 'pending'
              and e.channel = d.channel and e.target = d.target
              and (e.oldest_change, e.id) < (d.oldest_change, d.id)) > 0 as "waitsForOlder"
    from regwatch.alert_deliveries d join regwatch.alert_rules r on r.id = d.rule_id
    where d.status = 'pending'
      and (d.oldest_change, d.id) > (${options.after.oldestChange}::text::date, ${options.after.id}::bigint)
      and (${options.ignoreBackoff} or d.next_attempt_at <= ${options.now})
    order by d.oldest_change, d.id
    limit 1
    for update of d skip locked`;
  return row;
}

/**
 * Fixes the body of a message at its first attempt. Returns it as stored: jsonb orders keys its
 * own way, and every attempt must send the same bytes, the first one included.
 */
export async function savePayload(sql: Runner, id: number, payload: unknown): Promise<unknown> {
  const [row] = await sql<{ payload: unknown }[]>`
    update regwatch.alert_deliveries set payload = ${sql.json(payload as never)} where id = ${id}
    returning payload`;
  return row?.payload;
}

export interface AttemptRecord {
  status: "pending" | "sent" | "dead";
  nextAttemptAt: Date;
  at: Date;
  httpStatus: number | null;
  reply: string | null;
  error: string | null;
}

export async function recordAttempt(sql: Runner, id: number, attempt: AttemptRecord): Promise<void> {
  await sql`
    update regwatch.alert_deliveries
    set status = ${attempt.status}, attempts = attempts + 1, next_attempt_at = ${attempt.nextAttemptAt},
        last_attempt_at = ${attempt.at}, last_status = ${attempt.httpStatus}, last_reply = ${attempt.reply},
        last_error = ${attempt.error}, sent_at = case when ${attempt.status} = 'sent' then ${attempt.at}::timestamptz end
    where id = ${id}`;
}

/** Records a problem that is not the receiver's (a missing secret) without spending an attempt. */
export async function recordBlocked(sql: Runner, id: number, error: string, retryAt: Date): Promise<void> {
  await sql`
    update regwatch.alert_deliveries set last_error = ${error}, next_attempt_at = ${retryAt} where id = ${id}`;
}

export interface HeadingValue {
  heading: string;
  oldValue?: unknown;
  newValue?: unknown;
  /**
   * The business has several values of this heading on the change's day and nothing decides
   * their order: the new value may not be the one that held after that day.
   */
  orderAmbiguous?: boolean;
}

export interface AlertContent {
  alertId: number;
  changeId: number;
  taxId: string;
  name: string | null;
  changeDate: string;
  chapter: string;
  lists: string[];
  headings: HeadingValue[];
}

/**
 * What a message reports about each alert: the change, the business's best known name, the
 * lists that reported it, and per changed heading the old and new value where the change file
 * has been parsed (only the heading names otherwise) and whether its order within the day is
 * unknown. Oldest change first: day, the day's order where values chain, then storage order.
 */
export async function alertContents(sql: Runner, alertIds: readonly number[]): Promise<AlertContent[]> {
  const rows = await sql<
    (Omit<AlertContent, "headings"> & { headingNames: string[]; values: HeadingValue[] })[]
  >`
    select a.id::int as "alertId", c.id::int as "changeId", c.tax_id as "taxId",
           coalesce(p.name, b.full_name) as name,
           to_char(c.change_date, 'YYYY-MM-DD') as "changeDate", c.chapter,
           coalesce((select array_agg(distinct coalesce(w.list_name, s.list_key))
                     from regwatch.change_sources s left join regwatch.watch_lists w on w.list_key = s.list_key
                     where s.change_id = c.id), '{}') as lists,
           c.changed_headings as "headingNames",
           coalesce((select jsonb_agg(jsonb_build_object('heading', v.heading, 'oldValue', v.old_value, 'newValue', v.new_value, 'orderAmbiguous', v.order_ambiguous) order by v.heading)
                     from regwatch.change_values v where v.change_id = c.id), '[]'::jsonb) as values
    from regwatch.alerts a
    join regwatch.changes c on c.id = a.change_id
    left join regwatch.business_profiles p on p.tax_id = c.tax_id
    left join regwatch.businesses b on b.tax_id = c.tax_id
    where a.id = any (${alertIds as number[]}::bigint[])
    order by c.change_date,
             (select min(v.day_order) from regwatch.change_values v where v.change_id = c.id) nulls last,
             c.id, a.id`;
  return rows.map(({ headingNames, values, ...rest }) => {
    // The flag travels only when set, so a message about an unambiguous change is unchanged.
    const byHeading = new Map(
      values.map(({ orderAmbiguous, ...v }) => [v.heading, orderAmbiguous ? { ...v, orderAmbiguous } : v]),
    );
    const names = [...new Set([...headingNames, ...byHeading.keys()])];
    return { ...rest, headings: names.map((h) => byHeading.get(h) ?? { heading: h }) };
  });
}

export interface OutboxCounts {
  pending: number;
  dead: number;
  sent: number;
}

export async function outboxCounts(sql: Sql): Promise<OutboxCounts> {
  const [row] = await sql<OutboxCounts[]>`
    select count(*) filter (where status = 'pending')::int as pending,
           count(*) filter (where status = 'dead')::int as dead,
           count(*) filter (where status = 'sent')::int as sent
    from regwatch.alert_deliveries`;
  return row ?? { pending: 0, dead: 0, sent: 0 };
}

/** Deliveries by channel and final outcome, and alerts raised by rule: the metrics' counters. */
export async function alertTotals(sql: Sql) {
  const [deliveries, raised] = await Promise.all([
    sql<{ channel: string; outcome: string; count: number }[]>`
      select channel, status as outcome, count(*)::int as count
      from regwatch.alert_deliveries where status <> 'pending' group by channel, status`,
    sql<{ rule: string; count: number }[]>`
      select r.name as rule, count(a.id)::int as count
      from regwatch.alert_rules r left join regwatch.alerts a on a.rule_id = r.id group by r.name`,
  ]);
  return { deliveries: [...deliveries], raised: [...raised] };
}
