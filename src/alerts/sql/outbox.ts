/**
 * The alert outbox: claiming due messages under a lease, reading what they report, and recording
 * each outcome. A deliverer claims a batch with `for update skip locked` and a `lease_until`, commits,
 * sends with no transaction open, then records each outcome under its lease token: two
 * deliverers never send one message at once, and a deliverer that dies leaves its messages due
 * again when the lease runs out (sent again with the same id and frozen body: at least once).
 * A lease is written and compared on the database's clock (`now()`), never a deliverer's: one whose
 * clock runs hours ahead does not take a live lease, one hours behind does not keep a dead one.
 */
import type { Sql, Tx } from "../../db/connect.ts";

/** A connection or a transaction. */
export type Runner = Sql | Tx;

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
  /** E-mail: each recipient's outcome so far (absent before the first attempt). */
  recipients: Record<string, string> | null;
  createdAt: Date;
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
  /** The deliverer's clock, for the backoff (`next_attempt_at`) only: leases use the database's. */
  now: Date;
  /** Ignore the backoff: every pending message is due (operator's `alerts deliver`). */
  ignoreBackoff: boolean;
  /** Only messages after this place, so one pass tries each message at most once. */
  after: OutboxPlace;
  limit: number;
  leaseMs: number;
  /** This claim's token: only it may record the outcome of what it leased. */
  token: string;
  /** `channel target` keys whose receiver is paused (circuit open): left unclaimed. */
  skipTargets: readonly string[];
  /** Only these messages (those that waited for an older one earlier in the same pass). */
  onlyIds?: readonly number[];
}

/**
 * The next due messages in the outbox's order (oldest change first, then the order they were
 * queued in), locked for this transaction. Those waiting for an older message are returned
 * unleased (the caller counts them as deferred); the others are leased to `token`.
 */
export async function claimBatch(tx: Tx, options: ClaimOptions): Promise<DeliveryRow[]> {
  const rows = await tx<DeliveryRow[]>`
    select d.id::int, d.message_id as "messageId", d.rule_id::int as "ruleId", r.name as "ruleName",
           d.kind, d.alert_ids::int[] as "alertIds", d.channel, d.target, d.attempts, d.payload,
           d.recipients, d.created_at as "createdAt",
           to_char(d.oldest_change, 'YYYY-MM-DD') as "oldestChange",
           -- Counted rather than tested with exists: exists is planned to stop at a first match
           -- and then reads every pending message; a count looks up the business's messages.
           (select count(*) from ${tx.t.alert_deliveries} e
            where e.tax_ids && d.tax_ids and e.status = 'pending'
              and e.channel = d.channel and e.target = d.target
              and (e.oldest_change, e.id) < (d.oldest_change, d.id)) > 0 as "waitsForOlder"
    from ${tx.t.alert_deliveries} d join ${tx.t.alert_rules} r on r.id = d.rule_id
    where d.status = 'pending'
      and (d.lease_until is null or d.lease_until <= now())
      and (d.oldest_change, d.id) > (${options.after.oldestChange}::text::date, ${options.after.id}::bigint)
      and (${options.ignoreBackoff} or d.next_attempt_at <= ${options.now})
      and not (d.channel || ' ' || d.target = any (${options.skipTargets as string[]}::text[]))
      and (${options.onlyIds === undefined} or d.id = any (${(options.onlyIds ?? []) as number[]}::bigint[]))
    order by d.oldest_change, d.id
    limit ${options.limit}
    for update of d skip locked`;
  const leased = rows.filter((r) => !r.waitsForOlder).map((r) => r.id);
  if (leased.length > 0) {
    await tx`
      update ${tx.t.alert_deliveries}
      set lease_until = now() + make_interval(secs => ${options.leaseMs / 1000}), lease_token = ${options.token}
      where id = any (${leased}::bigint[])`;
  }
  return rows;
}

/**
 * Fixes the body of a message before its first attempt, in the claim's transaction: a crash
 * after the send resends these very bytes. Returns it as stored (jsonb orders keys its own way).
 */
export async function savePayload(sql: Runner, id: number, payload: unknown): Promise<unknown> {
  const [row] = await sql<{ payload: unknown }[]>`
    update ${sql.t.alert_deliveries} set payload = ${sql.json(payload as never)} where id = ${id}
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
  /** E-mail: every recipient's outcome after this attempt. */
  recipients?: Record<string, string>;
  /** False for a message given up before any attempt (too old): attempts stay as they are. */
  attempted?: boolean;
}

/** Records an attempt and ends the lease; false when the lease was lost to another claim. */
export async function recordAttempt(
  sql: Runner,
  id: number,
  token: string,
  attempt: AttemptRecord,
): Promise<boolean> {
  const rows = await sql`
    update ${sql.t.alert_deliveries}
    set status = ${attempt.status}, attempts = attempts + ${attempt.attempted === false ? 0 : 1},
        next_attempt_at = ${attempt.nextAttemptAt},
        last_attempt_at = ${attempt.at}, last_status = ${attempt.httpStatus}, last_reply = ${attempt.reply},
        last_error = ${attempt.error}, sent_at = case when ${attempt.status} = 'sent' then ${attempt.at}::timestamptz end,
        recipients = coalesce(${attempt.recipients ? sql.json(attempt.recipients) : null}::jsonb, recipients),
        lease_until = null, lease_token = null
    where id = ${id} and lease_token = ${token}`;
  return rows.count > 0;
}

/**
 * Ends a lease without an attempt: a problem that is not the receiver's (a missing secret) or a
 * receiver paused by its circuit breaker. `retryAt` and `error` are kept when given.
 */
export async function releaseLease(
  sql: Runner,
  id: number,
  token: string,
  change: { retryAt?: Date; error?: string } = {},
): Promise<void> {
  await sql`
    update ${sql.t.alert_deliveries}
    set lease_until = null, lease_token = null,
        next_attempt_at = coalesce(${change.retryAt ?? null}::timestamptz, next_attempt_at),
        last_error = coalesce(${change.error ?? null}::text, last_error)
    where id = ${id} and lease_token = ${token}`;
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
           coalesce(p.name, b.full_name, b.short_name) as name,
           to_char(c.change_date, 'YYYY-MM-DD') as "changeDate", c.chapter,
           coalesce((select array_agg(distinct coalesce(w.list_name, s.list_key))
                     from ${sql.t.change_sources} s left join ${sql.t.watch_lists} w on w.list_key = s.list_key
                     where s.change_id = c.id), '{}') as lists,
           c.changed_headings as "headingNames",
           coalesce((select jsonb_agg(jsonb_build_object('heading', v.heading, 'oldValue', v.old_value, 'newValue', v.new_value, 'orderAmbiguous', v.order_ambiguous) order by v.heading)
                     from ${sql.t.change_values} v where v.change_id = c.id), '[]'::jsonb) as values
    from ${sql.t.alerts} a
    join ${sql.t.changes} c on c.id = a.change_id
    left join ${sql.t.business_profiles} p on p.tax_id = c.tax_id
    left join ${sql.t.businesses} b on b.tax_id = c.tax_id
    where a.id = any (${alertIds as number[]}::bigint[])
    order by c.change_date,
             (select min(v.day_order) from ${sql.t.change_values} v where v.change_id = c.id) nulls last,
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
  /** Pending messages a deliverer holds under an unexpired lease: being sent now. */
  sending: number;
  /** Seconds since the oldest pending message was queued (database clock); 0 when none waits. */
  oldestPendingSeconds: number;
}

export async function outboxCounts(sql: Sql): Promise<OutboxCounts> {
  const [row] = await sql<OutboxCounts[]>`
    select count(*) filter (where status = 'pending')::int as pending,
           count(*) filter (where status = 'dead')::int as dead,
           count(*) filter (where status = 'sent')::int as sent,
           count(*) filter (where status = 'pending' and lease_until > now())::int as sending,
           coalesce(extract(epoch from now() - min(created_at) filter (where status = 'pending')), 0)::float8
             as "oldestPendingSeconds"
    from ${sql.t.alert_deliveries}`;
  return row ?? { pending: 0, dead: 0, sent: 0, sending: 0, oldestPendingSeconds: 0 };
}

/** Deliveries by channel and final outcome, and alerts raised by rule: the metrics' counters. */
export async function alertTotals(sql: Sql) {
  const [deliveries, raised] = await Promise.all([
    sql<{ channel: string; outcome: string; count: number }[]>`
      select channel, status as outcome, count(*)::int as count
      from ${sql.t.alert_deliveries} where status <> 'pending' group by channel, status`,
    sql<{ rule: string; count: number }[]>`
      select r.name as rule, count(a.id)::int as count
      from ${sql.t.alert_rules} r left join ${sql.t.alerts} a on a.rule_id = r.id group by r.name`,
  ]);
  return { deliveries: [...deliveries], raised: [...raised] };
}
