/**
 * What the console's lists page reads: the remote items as last stored by a reconcile or sync
 * (the page plans from them without asking the registry), and the per-list counts of
 * v_watch_status's states.
 */
import type { Sql } from "../../db/connect.ts";

/** The stored items of each given remote list, by list key. */
export async function readStoredItems(sql: Sql, listKeys: readonly string[]): Promise<Map<string, string[]>> {
  const byList = new Map<string, string[]>(listKeys.map((k) => [k, []]));
  if (listKeys.length === 0) return byList;
  const rows = await sql<{ listKey: string; taxId: string }[]>`
    select list_key as "listKey", tax_id as "taxId" from ${sql.t.watched_items}
    where list_key = any(${listKeys as string[]}::text[]) order by list_key, tax_id`;
  for (const r of rows) byList.get(r.listKey)?.push(r.taxId);
  return byList;
}

export interface WatchStateCount {
  listName: string;
  state: string;
  count: number;
}

/** How many items of each list are in each v_watch_status state. */
export async function readWatchStateCounts(sql: Sql): Promise<WatchStateCount[]> {
  return sql<WatchStateCount[]>`
    select list_name as "listName", state, count(*)::int as count
    from ${sql.t.v_watch_status} group by list_name, state order by list_name, state`;
}
