/**
 * The alert lifecycle: listing, acknowledging, resolving, snoozing and reopening alerts. Every
 * action is an alert_events row written in the statement that changes the alert, so the history
 * is never overwritten; the alert's status_by/status_note/status_at hold the latest action.
 */
import type { Sql } from "../../db/connect.ts";

export type AlertStatus = "open" | "acknowledged" | "resolved" | "snoozed";
export const ALERT_STATUSES: readonly AlertStatus[] = ["open", "acknowledged", "resolved", "snoozed"];

export interface AlertListRow {
  id: number;
  rule: string;
  status: AlertStatus;
  taxId: string;
  name: string | null;
  changeDate: string;
  headings: string[];
  lists: string[];
  raisedAt: Date;
  snoozedUntil: string | null;
  statusBy: string | null;
  statusNote: string | null;
  statusAt: Date | null;
  /** Worst state of the alert's messages: dead, pending or sent; null when it has none. */
  delivery: "dead" | "pending" | "sent" | null;
  lastError: string | null;
}

export interface AlertFilter {
  status?: AlertStatus;
  list?: string;
  limit: number;
}

export async function listAlerts(sql: Sql, filter: AlertFilter): Promise<AlertListRow[]> {
  const rows = await sql<AlertListRow[]>`
    select a.id::int, r.name as rule, a.status, c.tax_id as "taxId",
           coalesce(case when p.name_source is distinct from 'operator' then p.name end, b.full_name, b.short_name) as name,
           to_char(c.change_date, 'YYYY-MM-DD') as "changeDate", c.changed_headings as headings,
           coalesce((select array_agg(distinct coalesce(w.list_name, s.list_key))
                     from ${sql.t.change_sources} s left join ${sql.t.watch_lists} w on w.list_key = s.list_key
                     where s.change_id = c.id), '{}') as lists,
           a.raised_at as "raisedAt", to_char(a.snoozed_until, 'YYYY-MM-DD') as "snoozedUntil",
           a.status_by as "statusBy", a.status_note as "statusNote", a.status_at as "statusAt",
           d.delivery, d.last_error as "lastError"
    from ${sql.t.alerts} a
    join ${sql.t.alert_rules} r on r.id = a.rule_id
    join ${sql.t.changes} c on c.id = a.change_id
    left join ${sql.t.business_profiles} p on p.tax_id = c.tax_id
    left join ${sql.t.businesses} b on b.tax_id = c.tax_id
    left join lateral (
      select case when bool_or(x.status = 'dead') then 'dead' when bool_or(x.status = 'pending') then 'pending'
                  when bool_or(x.status = 'sent') then 'sent' end as delivery,
             (array_agg(x.last_error order by x.id desc) filter (where x.last_error is not null))[1] as last_error
      from ${sql.t.alert_deliveries} x where a.id = any (x.alert_ids)
    ) d on true
    where (${filter.status ?? null}::text is null or a.status = ${filter.status ?? null})
      and (${filter.list ?? null}::text is null or exists (
            select 1 from ${sql.t.change_sources} s left join ${sql.t.watch_lists} w on w.list_key = s.list_key
            where s.change_id = c.id and (s.list_key = ${filter.list ?? null} or w.list_name = ${filter.list ?? null})))
    order by a.id desc
    limit ${filter.limit}`;
  return [...rows];
}

export interface StatusChange {
  ids: readonly number[];
  status: Exclude<AlertStatus, "open">;
  by: string;
  note: string | null;
  snoozedUntil: string | null;
  at: Date;
}

/** Sets the status of the given alerts, each with its event; returns the ids that exist (and were changed). */
export async function setAlertStatus(sql: Sql, change: StatusChange): Promise<number[]> {
  const rows = await sql<{ id: number }[]>`
    with changed as (
      update ${sql.t.alerts}
      set status = ${change.status}, status_by = ${change.by}, status_note = ${change.note},
          status_at = ${change.at}, snoozed_until = ${change.snoozedUntil}
      where id = any (${change.ids as number[]}::bigint[])
      returning id, rule_id
    ), events as (
      insert into ${sql.t.alert_events} (rule_id, alert_id, at, by, action, note, snoozed_until)
      select rule_id, id, ${change.at}, ${change.by}, ${change.status}, ${change.note}, ${change.snoozedUntil}::date
      from changed order by id
    )
    select id::int from changed order by id`;
  return rows.map((r) => r.id);
}

/** Snoozed alerts whose last snoozed day is before `today` become open again. */
export async function reopenSnoozed(sql: Sql, today: string, at: Date): Promise<number> {
  const rows = await sql`
    with reopened as (
      update ${sql.t.alerts}
      set status = 'open', status_by = 'regwatch', status_at = ${at},
          status_note = 'snooze ended ' || to_char(snoozed_until, 'YYYY-MM-DD'), snoozed_until = null
      where status = 'snoozed' and snoozed_until < ${today}::date
      returning id, rule_id, status_note
    ), events as (
      insert into ${sql.t.alert_events} (rule_id, alert_id, at, by, action, note)
      select rule_id, id, ${at}, 'regwatch', 'reopened', status_note from reopened order by id
    )
    select id from reopened`;
  return rows.length;
}

export interface DeadDelivery {
  id: number;
  messageId: string;
  rule: string;
  channel: string;
  target: string;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
}

export async function deadDeliveries(sql: Sql, limit: number): Promise<DeadDelivery[]> {
  const rows = await sql<DeadDelivery[]>`
    select d.id::int, d.message_id as "messageId", r.name as rule, d.channel, d.target, d.attempts,
           d.last_status as "lastStatus", d.last_error as "lastError"
    from ${sql.t.alert_deliveries} d join ${sql.t.alert_rules} r on r.id = d.rule_id
    where d.status = 'dead' order by d.id desc limit ${limit}`;
  return [...rows];
}
