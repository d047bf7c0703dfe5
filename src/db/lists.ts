import type { Sql, Tx } from "./connect.ts";
import type { WatchedItemRow as WatchedItem, WatchListRow as WatchList } from "./rows.ts";

export interface StoredList {
  listKey: string;
  listName: string;
  createdAt: string | null;
  watchCount: number | null;
  deletedAt: Date | null;
}

/**
 * Records the lists the registry returned. A list we knew that is no longer returned is marked
 * deleted (its rows and its coverage stay, so history is kept); one that reappears is unmarked.
 * Returns the live lists as stored, so no caller reads them back.
 */
export async function saveWatchLists(
  sql: Sql,
  lists: readonly WatchList[],
): Promise<{ seen: number; disappeared: number; lists: StoredList[] }> {
  return sql.begin(async (tx) => {
    if (lists.length > 0) {
      const rows = lists.map((l) => ({
        list_key: l.list_key,
        list_name: l.list_name,
        created_at: l.created_at ?? null,
        watch_count: l.watch_count ?? null,
      }));
      await tx`
        insert into regwatch.watch_lists ${tx(rows, "list_key", "list_name", "created_at", "watch_count")}
        on conflict (list_key) do update
        set list_name = excluded.list_name, created_at = excluded.created_at,
            watch_count = excluded.watch_count, last_seen_at = now(), deleted_at = null`;
    }
    const gone = await tx`
      update regwatch.watch_lists set deleted_at = now()
      where deleted_at is null and list_key <> all(${lists.map((l) => l.list_key)}::text[])
      returning list_key`;
    return { seen: lists.length, disappeared: gone.length, lists: await loadWatchLists(tx) };
  });
}

/** Lists as last seen; deleted ones only when asked for. */
export async function loadWatchLists(
  sql: Sql | Tx,
  options: { includeDeleted?: boolean } = {},
): Promise<StoredList[]> {
  return sql<StoredList[]>`
    select list_key as "listKey", list_name as "listName", to_char(created_at, 'YYYY-MM-DD') as "createdAt",
           watch_count as "watchCount", deleted_at as "deletedAt"
    from regwatch.watch_lists
    where ${options.includeDeleted ? sql`true` : sql`deleted_at is null`}
    order by list_name, list_key`;
}

/**
 * Replaces the stored items of one list with what the registry returned for it. An item read
 * again unchanged is not rewritten: reconcile reads every list back after each run.
 */
export async function saveWatchedItems(
  sql: Sql,
  listKey: string,
  items: readonly WatchedItem[],
): Promise<void> {
  await sql.begin(async (tx) => {
    const taxIds = items.map((i) => i.tax_id);
    await tx`delete from regwatch.watched_items where list_key = ${listKey} and tax_id <> all(${taxIds}::text[])`;
    if (items.length === 0) return;
    const rows = items.map((i) => ({ list_key: listKey, tax_id: i.tax_id, added_at: i.added_at ?? null }));
    for (let i = 0; i < rows.length; i += 5000) {
      await tx`
        insert into regwatch.watched_items ${tx(rows.slice(i, i + 5000), "list_key", "tax_id", "added_at")}
        on conflict (list_key, tax_id) do update set added_at = excluded.added_at, last_seen_at = now()
          where watched_items.added_at is distinct from excluded.added_at`;
    }
  });
}
