/**
 * The console's inbox, one row per change: a page of changes whose alerts match the filters,
 * newest change first, each with the alerts (and so the rules) that matched it, its values and
 * its severity, and the counts bar. The page is read through alerts_status_change (status, then
 * change newest first, carrying the alert's id, rule, assignee and time), so a page of 50 changes
 * stops after those changes' alerts however many alerts are open.
 */

import type { AlertStatus } from "../../alerts/sql/lifecycle.ts";
import type { HeadingValue } from "../../alerts/sql/outbox.ts";
import { newestStatus, newestStatusColumns, type StatusSource } from "../../changes/sql/newest-status.ts";
import type { Fragment, Sql } from "../../db/connect.ts";

/** What makes a change high (the caller's rule: src/alerts/severity.ts). */
export interface SeveritySql {
  headings: string[];
  statusHeadings: string[];
  statusCodes: string[];
}

export interface InboxChangeFilter {
  /** Alerts with this status; "all" for every status. */
  status: AlertStatus | "all";
  /** A watch list's name or key. */
  list: string | null;
  heading: string | null;
  /** A rule's name. */
  rule: string | null;
  /** Change dates from and to (YYYY-MM-DD, inclusive). */
  from: string | null;
  to: string | null;
  severity: "high" | "normal" | null;
  /** Alerts assigned to this user. */
  assignedTo: string | null;
  /** Alerts raised at or after this instant. */
  raisedSince: Date | null;
  /** 1-based. */
  page: number;
  pageSize: number;
}

export interface InboxChange {
  changeId: number;
  /** The change's alerts under the filters, one per rule, by id. */
  alertIds: number[];
  /** The same alerts with the rule that raised each, by rule name. */
  alerts: { id: number; rule: string; status: AlertStatus }[];
  statuses: AlertStatus[];
  snoozedUntil: string | null;
  assignedTo: string[];
  taxId: string;
  name: string | null;
  /** The business's status now, by the newest dated evidence (changes/sql/newest-status.ts). */
  statusCode?: number | null;
  statusOn?: string | null;
  statusSource?: StatusSource | null;
  changeDate: string;
  lists: string[];
  headingNames: string[];
  values: HeadingValue[];
  severity: "high" | "normal";
  raisedAt: Date;
  delivery: "dead" | "pending" | "sent" | null;
}

/** `high` as an SQL condition on the change `c`. */
function isHigh(sql: Sql, s: SeveritySql): Fragment {
  return sql`(c.changed_headings && ${s.headings}::text[] or exists (
    select 1 from ${sql.t.change_values} sv
    where sv.change_id = c.id and sv.heading = any (${s.statusHeadings}::text[])
      and sv.new_value #>> '{}' = any (${s.statusCodes}::text[])))`;
}

export async function inboxChanges(
  sql: Sql,
  f: InboxChangeFilter,
  severity: SeveritySql,
  timeZone: string,
): Promise<{ changes: InboxChange[]; hasNext: boolean }> {
  const status = f.status === "all" ? null : f.status;
  const onChange = [
    f.heading === null ? null : sql`c.changed_headings @> array[${f.heading}::text]`,
    f.from === null ? null : sql`c.change_date >= ${f.from}::date`,
    f.to === null ? null : sql`c.change_date <= ${f.to}::date`,
    f.severity === null
      ? null
      : f.severity === "high"
        ? isHigh(sql, severity)
        : sql`not ${isHigh(sql, severity)}`,
    f.list === null
      ? null
      : sql`exists (
          select 1 from ${sql.t.change_sources} s left join ${sql.t.watch_lists} w on w.list_key = s.list_key
          where s.change_id = c.id and (s.list_key = ${f.list} or w.list_name = ${f.list}))`,
  ].filter((x): x is Fragment => x !== null);
  const changeFilter =
    onChange.length === 0
      ? sql``
      : sql`and exists (select 1 from ${sql.t.changes} c where c.id = a.change_id and ${onChange.reduce(
          (all, one) => sql`${all} and ${one}`,
        )})`;
  const rows = await sql<InboxChange[]>`
    with page as (
      select a.change_id, array_agg(a.id order by a.id) as alert_ids,
             array_agg(distinct a.status) as statuses, max(a.raised_at) as raised_at,
             coalesce(array_agg(distinct a.assigned_to) filter (where a.assigned_to is not null), '{}') as assigned
      from ${sql.t.alerts} a
      where true
        ${status === null ? sql`` : sql`and a.status = ${status}`}
        ${f.rule === null ? sql`` : sql`and a.rule_id in (select id from ${sql.t.alert_rules} where name = ${f.rule})`}
        ${f.assignedTo === null ? sql`` : sql`and a.assigned_to = ${f.assignedTo}`}
        ${f.raisedSince === null ? sql`` : sql`and a.raised_at >= ${f.raisedSince}`}
        ${changeFilter}
      group by a.change_id
      order by a.change_id desc
      limit ${f.pageSize + 1} offset ${(f.page - 1) * f.pageSize}
    ), shown as (
      select p.change_id, u.alert_id from page p cross join unnest(p.alert_ids) u(alert_id)
    ), deliveries as (
      -- One look-up in the GIN index of alert_ids for the whole page, not one per alert; the
      -- messages found are matched to the page's alerts by id (a hash join), not array by array.
      select s.change_id,
             case when bool_or(x.status = 'dead') then 'dead' when bool_or(x.status = 'pending') then 'pending'
                  when bool_or(x.status = 'sent') then 'sent' end as delivery
      from (select d.status, unnest(d.alert_ids) as alert_id from ${sql.t.alert_deliveries} d
            where d.alert_ids && (select coalesce(array_agg(alert_id), '{}') from shown)) x
      join shown s on s.alert_id = x.alert_id
      group by s.change_id
    )
    select p.change_id::int as "changeId", p.alert_ids::int[] as "alertIds",
           (select jsonb_agg(jsonb_build_object('id', x.id, 'rule', r.name, 'status', x.status) order by r.name, x.id)
              from ${sql.t.alerts} x join ${sql.t.alert_rules} r on r.id = x.rule_id where x.id = any (p.alert_ids)) as alerts,
           p.statuses, p.assigned as "assignedTo", p.raised_at as "raisedAt",
           (select to_char(max(x.snoozed_until), 'YYYY-MM-DD') from ${sql.t.alerts} x
             where x.id = any (p.alert_ids) and x.status = 'snoozed') as "snoozedUntil",
           c.tax_id as "taxId", coalesce(case when bp.name_source is distinct from 'operator' then bp.name end, b.full_name, b.short_name) as name,
           ${newestStatusColumns(sql)},
           to_char(c.change_date, 'YYYY-MM-DD') as "changeDate",
           coalesce((select array_agg(distinct coalesce(w.list_name, s.list_key))
                     from ${sql.t.change_sources} s left join ${sql.t.watch_lists} w on w.list_key = s.list_key
                     where s.change_id = c.id), '{}') as lists,
           c.changed_headings as "headingNames",
           coalesce(v.values, '[]'::jsonb) as values,
           case when c.changed_headings && ${severity.headings}::text[] or v.ceased then 'high' else 'normal' end as severity,
           d.delivery
    from page p
    join ${sql.t.changes} c on c.id = p.change_id
    -- The change's values, read once for the page and for its severity (a status now ceased or
    -- suspended), rather than probing the values again for each row.
    left join lateral (
      select jsonb_agg(jsonb_build_object('heading', cv.heading, 'oldValue', cv.old_value,
                                          'newValue', cv.new_value, 'orderAmbiguous', cv.order_ambiguous)
                       order by cv.heading) as values,
             bool_or(cv.heading = any (${severity.statusHeadings}::text[])
                     and cv.new_value #>> '{}' = any (${severity.statusCodes}::text[])) as ceased
      from ${sql.t.change_values} cv where cv.change_id = c.id
    ) v on true
    left join ${sql.t.business_profiles} bp on bp.tax_id = c.tax_id
    left join ${sql.t.businesses} b on b.tax_id = c.tax_id
    left join deliveries d on d.change_id = p.change_id
    left join lateral (${newestStatus(sql, sql`c.tax_id`, timeZone)}) ns on true
    order by p.change_id desc`;
  return { changes: rows.slice(0, f.pageSize), hasNext: rows.length > f.pageSize };
}

/** The counts bar, in changes with an open alert: each count is also a filter of the inbox. */
export interface InboxChangeCounts {
  open: number;
  /** Changes with an open alert raised since `since` (a day before the console's now). */
  newSince: number;
  high: number;
  bankAccounts: number;
  assignedToMe: number;
}

/**
 * The counts from inbox_open_changes, one row per change with an open alert that triggers keep
 * as alerts, change values and changes are written (migration 0055: what makes a change high is
 * SEVERITY_RULE's, written out there), and "assigned to me" from the user's open alerts
 * (alerts_open_assigned).
 */
export async function inboxChangeCounts(
  sql: Sql,
  input: { since: Date; me: string },
): Promise<InboxChangeCounts> {
  const [row] = await sql<InboxChangeCounts[]>`
    select count(*)::int as open,
           count(*) filter (where o.newest_raised_at >= ${input.since})::int as "newSince",
           count(*) filter (where o.bank_accounts)::int as "bankAccounts",
           count(*) filter (where o.high)::int as high,
           (select count(distinct a.change_id)::int from ${sql.t.alerts} a
            where a.status = 'open' and a.assigned_to = ${input.me}) as "assignedToMe"
    from ${sql.t.inbox_open_changes} o
    where o.open_alerts > 0`;
  return row ?? { open: 0, newSince: 0, high: 0, bankAccounts: 0, assignedToMe: 0 };
}

/** The alerts of these changes (with this status, or any when null): what acting on their rows acts on. */
export async function alertsOfChanges(
  sql: Sql,
  changeIds: readonly number[],
  status: AlertStatus | null,
): Promise<number[]> {
  if (changeIds.length === 0) return [];
  const rows = await sql<{ id: number }[]>`
    select id::int from ${sql.t.alerts}
    where change_id = any (${changeIds as number[]}::bigint[])
      ${status === null ? sql`` : sql`and status = ${status}`}
    order by id`;
  return rows.map((r) => r.id);
}

/**
 * Assigns the alerts to `to` (null: to nobody), each with an 'assigned' event naming who had it
 * before; alerts assigned to `to` already are left alone. Returns the ids changed.
 */
export async function assignAlerts(
  sql: Sql,
  change: { ids: readonly number[]; to: string | null; by: string; note: string | null; at: Date },
): Promise<number[]> {
  const rows = await sql<{ id: number }[]>`
    with before as (
      select id, rule_id, assigned_to from ${sql.t.alerts}
      where id = any (${change.ids as number[]}::bigint[]) and assigned_to is distinct from ${change.to}::text
      for update
    ), changed as (
      update ${sql.t.alerts} a set assigned_to = ${change.to}::text from before b where a.id = b.id
      returning a.id, b.rule_id, b.assigned_to as was
    ), events as (
      insert into ${sql.t.alert_events} (rule_id, alert_id, at, by, action, note, details)
      select rule_id, id, ${change.at}, ${change.by}, 'assigned', ${change.note},
             jsonb_build_object('from', was, 'to', ${change.to}::text)
      from changed order by id
    )
    select id::int from changed order by id`;
  return rows.map((r) => r.id);
}

/** Why an inbox may be empty: the rules in use (paused ones counted apart) and the last finished sync. */
export async function inboxContext(
  sql: Sql,
): Promise<{ rules: number; activeRules: number; lastRunAt: Date | null }> {
  const [row] = await sql<{ rules: number; activeRules: number; lastRunAt: Date | null }[]>`
    select (select count(*)::int from ${sql.t.alert_rules} where removed_at is null) as rules,
           (select count(*)::int from ${sql.t.alert_rules} where removed_at is null and enabled) as "activeRules",
           (select max(finished_at) from ${sql.t.runs} where kind in ('sync', 'backfill') and finished_at is not null) as "lastRunAt"`;
  return row ?? { rules: 0, activeRules: 0, lastRunAt: null };
}
