import type { Interval } from "../dates.ts";
import type { Sql } from "./connect.ts";

/** Covered intervals per list, as the server reported them. */
export async function loadCoverage(sql: Sql, listKeys: readonly string[]): Promise<Map<string, Interval[]>> {
  const rows = await sql<{ list_key: string; start: string; end: string }[]>`
    select list_key, to_char(start_date, 'YYYY-MM-DD') as start, to_char(end_date, 'YYYY-MM-DD') as end
    from regwatch.coverage where list_key = any(${listKeys as string[]}::text[])
    order by list_key, start_date`;
  const byList = new Map<string, Interval[]>(listKeys.map((k) => [k, []]));
  for (const row of rows) byList.get(row.list_key)?.push({ start: row.start, end: row.end });
  return byList;
}

/** The list key of a list named by key or by name, or undefined when no known list matches. */
export async function resolveListKey(sql: Sql, list: string): Promise<string | undefined> {
  const rows = await sql<{ list_key: string }[]>`
    select list_key from regwatch.watch_lists
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
      insert into regwatch.coverage (list_key, start_date, end_date, change_count, accepted_reason)
      values (${accept.listKey}, ${accept.start}, ${accept.end}, 0, ${accept.reason})
      on conflict (list_key, start_date, end_date) do update
        set accepted_reason = excluded.accepted_reason, fetched_at = now()`;
    const closed = await tx`
      update regwatch.invalid_items
      set resolved_at = now(), resolution = ${`accepted: ${accept.reason}`}
      where list_key = ${accept.listKey} and resolved_at is null
        and window_start <= ${accept.end} and window_end >= ${accept.start}`;
    return { closedItems: closed.count };
  });
}
