/**
 * What the console's lists page reads: the remote items as last stored by a reconcile or sync
 * (the page plans from them without asking the registry), and the per-list counts of
 * v_watch_status's states.
 */
import type { Sql } from "./connect.ts";

/** The stored items of each given remote list, by list key. */
export async function readStoredItems(sql: Sql, listKeys: readonly string[]): Promise<Map<string, string[]>> {
  const byList = new Map<string, string[]>(listKeys.map((k) => [k, []]));
  if (listKeys.length === 0) return byList;
  const rows = await sql<{ listKey: string; taxId: string }[]>`
    select list_key as "listKey", tax_id as "taxId" from watched_items
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
    from v_watch_status group by list_name, state order by list_name, state`;
}

export interface WatchStateItem {
  taxId: string;
  businessName: string | null;
  state: string;
  lastCode: number | null;
  lastMessage: string | null;
}

/** The items of one list that are not in sync (pending, failed, not requested, unmanaged), at most `limit`. */
export async function readOutOfSyncItems(
  sql: Sql,
  listName: string,
  limit: number,
): Promise<WatchStateItem[]> {
  return sql<WatchStateItem[]>`
    select tax_id as "taxId", business_name as "businessName", state, last_code as "lastCode",
           last_message as "lastMessage"
    from v_watch_status
    where list_name = ${listName} and state <> 'in_sync'
    order by state, tax_id
    limit ${limit}`;
}
