/**
 * The console's inbox: one page of alerts with their changes' values, newest first, under the
 * filters of the query string, and the counts bar. Only the page's rows get their lists, values
 * and delivery state, so the page costs the same with 50 or 50,000 open alerts.
 */
import type { AlertStatus } from "./alerts-lifecycle.ts";
import type { HeadingValue } from "./alerts-outbox.ts";
import type { Sql } from "./connect.ts";

export interface InboxFilter {
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
  /** 1-based. */
  page: number;
  pageSize: number;
}

export interface InboxAlert {
  id: number;
  rule: string;
  status: AlertStatus;
  snoozedUntil: string | null;
  taxId: string;
  name: string | null;
  changeDate: string;
  lists: string[];
  headingNames: string[];
  values: HeadingValue[];
  raisedAt: Date;
  statusBy: string | null;
  statusAt: Date | null;
  delivery: "dead" | "pending" | "sent" | null;
}

export async function inboxPage(
  sql: Sql,
  f: InboxFilter,
): Promise<{ alerts: InboxAlert[]; hasNext: boolean }> {
  const status = f.status === "all" ? null : f.status;
  const rows = await sql<InboxAlert[]>`
    with page as (
      select a.id, a.rule_id, a.change_id, a.status, a.snoozed_until, a.raised_at, a.status_by, a.status_at
      from alerts a
      join changes c on c.id = a.change_id
      where true
        ${status === null ? sql`` : sql`and a.status = ${status}`}
        ${f.rule === null ? sql`` : sql`and a.rule_id in (select id from alert_rules where name = ${f.rule})`}
        ${f.heading === null ? sql`` : sql`and c.changed_headings @> array[${f.heading}::text]`}
        ${f.from === null ? sql`` : sql`and c.change_date >= ${f.from}::date`}
        ${f.to === null ? sql`` : sql`and c.change_date <= ${f.to}::date`}
        ${
          f.list === null
            ? sql``
            : sql`and exists (
                select 1 from change_sources s left join watch_lists w on w.list_key = s.list_key
                where s.change_id = c.id and (s.list_key = ${f.list} or w.list_name = ${f.list}))`
        }
      order by a.id desc
      limit ${f.pageSize + 1} offset ${(f.page - 1) * f.pageSize}
    ), deliveries as (
      -- One look-up in the GIN index of alert_ids for the whole page, not one per alert.
      select u.id, case when bool_or(x.status = 'dead') then 'dead' when bool_or(x.status = 'pending') then 'pending'
                        when bool_or(x.status = 'sent') then 'sent' end as delivery
      from alert_deliveries x cross join lateral unnest(x.alert_ids) u(id)
      where x.alert_ids && (select coalesce(array_agg(id), '{}') from page) and u.id in (select id from page)
      group by u.id
    )
    select a.id::int, r.name as rule, a.status, to_char(a.snoozed_until, 'YYYY-MM-DD') as "snoozedUntil",
           c.tax_id as "taxId", coalesce(case when p.name_source is distinct from 'operator' then p.name end, b.full_name, b.short_name) as name,
           to_char(c.change_date, 'YYYY-MM-DD') as "changeDate",
           coalesce((select array_agg(distinct coalesce(w.list_name, s.list_key))
                     from change_sources s left join watch_lists w on w.list_key = s.list_key
                     where s.change_id = c.id), '{}') as lists,
           c.changed_headings as "headingNames",
           coalesce((select jsonb_agg(jsonb_build_object('heading', v.heading, 'oldValue', v.old_value,
                                                         'newValue', v.new_value, 'orderAmbiguous', v.order_ambiguous)
                                      order by v.heading)
                     from change_values v where v.change_id = c.id), '[]'::jsonb) as values,
           a.raised_at as "raisedAt", a.status_by as "statusBy", a.status_at as "statusAt",
           d.delivery
    from page a
    join alert_rules r on r.id = a.rule_id
    join changes c on c.id = a.change_id
    left join business_profiles p on p.tax_id = c.tax_id
    left join businesses b on b.tax_id = c.tax_id
    left join deliveries d on d.id = a.id
    order by a.id desc`;
  return { alerts: rows.slice(0, f.pageSize), hasNext: rows.length > f.pageSize };
}

export interface InboxCounts {
  open: number;
  /** Open alerts raised since `since` (a day before the console's now). */
  newSince: number;
  /** Open alerts whose change touched bank_accounts. */
  bankAccountsOpen: number;
}

export async function inboxCounts(sql: Sql, since: Date): Promise<InboxCounts> {
  const [row] = await sql<InboxCounts[]>`
    select (select count(*)::int from alerts where status = 'open') as open,
           (select count(*)::int from alerts where status = 'open' and raised_at >= ${since}) as "newSince",
           (select count(*)::int from alerts a
             where a.status = 'open' and a.change_id in (
               select id from changes where 'bank_accounts' = any (changed_headings))) as "bankAccountsOpen"`;
  return row ?? { open: 0, newSince: 0, bankAccountsOpen: 0 };
}

/** What the filter boxes offer: lists, rules (not removed) and headings seen. */
export async function inboxChoices(
  sql: Sql,
): Promise<{ lists: string[]; rules: string[]; headings: string[] }> {
  const [lists, rules, headings] = await Promise.all([
    sql<{ name: string }[]>`
      select coalesce(list_name, list_key) as name from watch_lists order by 1`,
    sql<{ name: string }[]>`select name from alert_rules where removed_at is null order by name`,
    sql<{ heading: string }[]>`select heading from seen_headings order by heading`,
  ]);
  return {
    lists: [...new Set(lists.map((l) => l.name))],
    rules: rules.map((r) => r.name),
    headings: headings.map((h) => h.heading),
  };
}

/** Adds a comment to each alert that exists, leaving its status alone; returns those ids. */
export async function commentOnAlerts(
  sql: Sql,
  comment: { ids: readonly number[]; by: string; note: string; at: Date },
): Promise<number[]> {
  const rows = await sql<{ id: number }[]>`
    insert into alert_events (rule_id, alert_id, at, by, action, note)
    select a.rule_id, a.id, ${comment.at}, ${comment.by}, 'commented', ${comment.note}
    from alerts a where a.id = any (${comment.ids as number[]}::bigint[])
    order by a.id
    returning alert_id::int as id`;
  return rows.map((r) => r.id);
}

/** The business's other changes, newest first, for the alert page. */
export async function recentChangesOf(
  sql: Sql,
  taxId: string,
  exceptChangeId: number,
  limit: number,
): Promise<{ changeId: number; changeDate: string; headingNames: string[]; values: HeadingValue[] }[]> {
  const rows = await sql<
    { changeId: number; changeDate: string; headingNames: string[]; values: HeadingValue[] }[]
  >`
    select c.id::int as "changeId", to_char(c.change_date, 'YYYY-MM-DD') as "changeDate",
           c.changed_headings as "headingNames",
           coalesce((select jsonb_agg(jsonb_build_object('heading', v.heading, 'oldValue', v.old_value,
                                                         'newValue', v.new_value) order by v.heading)
                     from change_values v where v.change_id = c.id), '[]'::jsonb) as values
    from changes c
    where c.tax_id = ${taxId} and c.id <> ${exceptChangeId}
    order by c.change_date desc, c.id desc
    limit ${limit}`;
  return [...rows];
}

/**
 * The watch lists each business is on now (as last read from the registry), by tax id. Probed
 * through watched_items' key, list by list, so it costs lists × businesses index look-ups.
 */
export async function listsOfBusinesses(sql: Sql, taxIds: readonly string[]): Promise<Map<string, string[]>> {
  if (taxIds.length === 0) return new Map();
  const rows = await sql<{ taxId: string; lists: string[] }[]>`
    select i.tax_id as "taxId", array_agg(distinct w.list_name order by w.list_name) as lists
    from watch_lists w
    cross join unnest(${taxIds as string[]}::text[]) t(tax_id)
    join watched_items i on i.list_key = w.list_key and i.tax_id = t.tax_id
    where w.deleted_at is null
    group by i.tax_id`;
  return new Map(rows.map((r) => [r.taxId, r.lists]));
}
