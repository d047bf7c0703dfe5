/**
 * What the console's inbox and alert pages read beside the page of changes
 * (console-inbox-changes.ts): the filter boxes' choices, comments, a business's other changes and
 * the lists businesses are on.
 */
import type { HeadingValue } from "../../alerts/sql/outbox.ts";
import type { Sql } from "../../db/connect.ts";

/** What the filter boxes offer: lists, rules (not removed) and headings seen. */
export async function inboxChoices(
  sql: Sql,
): Promise<{ lists: string[]; rules: string[]; headings: string[] }> {
  const [lists, rules, headings] = await Promise.all([
    sql<{ name: string }[]>`
      select coalesce(list_name, list_key) as name from ${sql.t.watch_lists} order by 1`,
    sql<{ name: string }[]>`select name from ${sql.t.alert_rules} where removed_at is null order by name`,
    sql<{ heading: string }[]>`select heading from ${sql.t.seen_headings} order by heading`,
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
    insert into ${sql.t.alert_events} (rule_id, alert_id, at, by, action, note)
    select a.rule_id, a.id, ${comment.at}, ${comment.by}, 'commented', ${comment.note}
    from ${sql.t.alerts} a where a.id = any (${comment.ids as number[]}::bigint[])
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
                     from ${sql.t.change_values} v where v.change_id = c.id), '[]'::jsonb) as values
    from ${sql.t.changes} c
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
    from ${sql.t.watch_lists} w
    cross join unnest(${taxIds as string[]}::text[]) t(tax_id)
    join ${sql.t.watched_items} i on i.list_key = w.list_key and i.tax_id = t.tax_id
    where w.deleted_at is null
    group by i.tax_id`;
  return new Map(rows.map((r) => [r.taxId, r.lists]));
}
