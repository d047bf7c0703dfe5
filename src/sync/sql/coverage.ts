import { addDays, type Interval, minDate } from "../../dates.ts";
import type { Sql } from "../../db/connect.ts";
import { dayIn } from "../../db/time-zone.ts";

/** Covered intervals per list, as the server reported them. */
export async function loadCoverage(sql: Sql, listKeys: readonly string[]): Promise<Map<string, Interval[]>> {
  const rows = await sql<{ list_key: string; start: string; end: string }[]>`
    select list_key, to_char(start_date, 'YYYY-MM-DD') as start, to_char(end_date, 'YYYY-MM-DD') as end
    from ${sql.t.coverage} where list_key = any(${listKeys as string[]}::text[])
    order by list_key, start_date`;
  const byList = new Map<string, Interval[]>(listKeys.map((k) => [k, []]));
  for (const row of rows) byList.get(row.list_key)?.push({ start: row.start, end: row.end });
  return byList;
}

/** The list key of a list named by key or by name, or undefined when no known list matches. */
export async function resolveListKey(sql: Sql, list: string): Promise<string | undefined> {
  const rows = await sql<{ list_key: string }[]>`
    select list_key from ${sql.t.watch_lists}
    where list_key = ${list} or list_name = ${list}
    order by list_key = ${list} desc, deleted_at is not null, list_key limit 1`;
  return rows[0]?.list_key;
}

/**
 * An operator's decision that days are covered although their answers held invalid items: the
 * coverage row carries the reason, and the open invalid items of those days are closed with it.
 */
export async function acceptCoverage(
  sql: Sql,
  accept: { listKey: string; start: string; end: string; reason: string },
): Promise<{ closedItems: number }> {
  return sql.begin(async (tx) => {
    await tx`
      insert into ${tx.t.coverage} (list_key, start_date, end_date, change_count, accepted_reason)
      values (${accept.listKey}, ${accept.start}, ${accept.end}, 0, ${accept.reason})
      on conflict (list_key, start_date, end_date) do update
        set accepted_reason = excluded.accepted_reason, fetched_at = now()`;
    const closed = await tx`
      update ${tx.t.invalid_items}
      set resolved_at = now(), resolution = ${`accepted: ${accept.reason}`}
      where list_key = ${accept.listKey} and resolved_at is null
        and window_start <= ${accept.end} and window_end >= ${accept.start}`;
    return { closedItems: closed.count };
  });
}

/** Why a day may not be accepted (see firstDayNotToAccept). */
export type AcceptRefusal = "before_list" | "after_list" | "covered" | "not_complete";

/**
 * The first day of [start, end] an operator may not mark covered, with why, or undefined when
 * every day may be: acceptance is for days the registry's answers left open (open invalid items,
 * or not covered at all although every sync asks for them), within the list's life (from its
 * created_at to its deletion) and up to the last complete day. A day already covered by a read
 * needs no acceptance; one accepted before may be accepted again (a new reason replaces the old).
 * The list's deletion day is a day of the registry's calendar.
 */
export async function firstDayNotToAccept(
  sql: Sql,
  accept: { listKey: string; start: string; end: string; lastComplete: string; registryTz: string },
): Promise<{ day: string; why: AcceptRefusal } | undefined> {
  const { listKey, start, end, lastComplete, registryTz } = accept;
  const checkedEnd = minDate(end, lastComplete);
  if (start <= checkedEnd) {
    const [row] = await sql<{ day: string; why: AcceptRefusal }[]>`
      with l as (
        select created_at, ${dayIn(sql, sql`deleted_at`, registryTz)} as deleted
        from ${sql.t.watch_lists} where list_key = ${listKey}
      ), days as (
        select d::date as day from generate_series(${start}::date, ${checkedEnd}::date, interval '1 day') d
      )
      select to_char(days.day, 'YYYY-MM-DD') as day,
             case when l.created_at is not null and days.day < l.created_at then 'before_list'
                  when l.deleted is not null and days.day > l.deleted then 'after_list'
                  else 'covered' end as why
      from days, l
      where (l.created_at is not null and days.day < l.created_at)
         or (l.deleted is not null and days.day > l.deleted)
         or (exists (select 1 from ${sql.t.coverage} c
                     where c.list_key = ${listKey} and c.accepted_reason is null
                       and days.day between c.start_date and c.end_date)
             and not exists (select 1 from ${sql.t.invalid_items} i
                             where i.list_key = ${listKey} and i.resolved_at is null
                               and days.day between i.window_start and i.window_end))
      order by days.day limit 1`;
    if (row) return row;
  }
  if (end > lastComplete)
    return { day: start > lastComplete ? start : addDays(lastComplete, 1), why: "not_complete" };
  return undefined;
}
