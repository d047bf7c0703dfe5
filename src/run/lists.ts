import type { Sql, Tx } from "../db/connect.ts";
import type { WatchedItemRow as WatchedItem, WatchListRow as WatchList } from "../db/rows.ts";

export interface StoredList {
  listKey: string;
  listName: string;
  createdAt: string | null;
  watchCount: number | null;
  deletedAt: Date | null;
  /** Day (registry zone) its items were last read into watched_items; null before the first read. */
  itemsReadOn: string | null;
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
        insert into ${tx.t.watch_lists} ${tx(rows, "list_key", "list_name", "created_at", "watch_count")}
        on conflict (list_key) do update
        set list_name = excluded.list_name, created_at = excluded.created_at,
            watch_count = excluded.watch_count, last_seen_at = now(), deleted_at = null`;
    }
    const gone = await tx`
      update ${tx.t.watch_lists} set deleted_at = now()
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
           watch_count as "watchCount", deleted_at as "deletedAt",
           to_char(items_read_on, 'YYYY-MM-DD') as "itemsReadOn"
    from ${sql.t.watch_lists}
    where ${options.includeDeleted ? sql`true` : sql`deleted_at is null`}
    order by list_name, list_key`;
}

/** What the registry may hold on a list that watched_items can keep: a tax base number. */
const TAX_BASE = /^[0-9]{8}$/;

/**
 * Replaces the stored items of one list with what the registry returned for it, and records the
 * day they were read (`readOn`, the registry's day: a list read today is not read again by a
 * sync). An item read again unchanged is not rewritten: reconcile reads its lists on every run.
 * Items whose tax id is not a tax base number are not stored (a registry's answer is untrusted,
 * and such a text could not name a business anyway); they are returned so the caller can say so.
 */
export async function saveWatchedItems(
  sql: Sql,
  listKey: string,
  items: readonly WatchedItem[],
  readOn: string,
): Promise<{ stored: number; setAside: string[] }> {
  const kept = items.filter((i) => TAX_BASE.test(i.tax_id));
  const setAside = items.filter((i) => !TAX_BASE.test(i.tax_id)).map((i) => i.tax_id);
  await sql.begin(async (tx) => {
    const taxIds = kept.map((i) => i.tax_id);
    await tx`delete from ${tx.t.watched_items} where list_key = ${listKey} and tax_id <> all(${taxIds}::text[])`;
    await tx`update ${tx.t.watch_lists} set items_read_on = ${readOn}::date where list_key = ${listKey}`;
    if (kept.length === 0) return;
    const rows = kept.map((i) => ({ list_key: listKey, tax_id: i.tax_id, added_at: i.added_at ?? null }));
    for (let i = 0; i < rows.length; i += 5000) {
      await tx`
        insert into ${tx.t.watched_items} ${tx(rows.slice(i, i + 5000), "list_key", "tax_id", "added_at")}
        on conflict (list_key, tax_id) do update set added_at = excluded.added_at, last_seen_at = now()
          where watched_items.added_at is distinct from excluded.added_at`;
    }
  });
  return { stored: kept.length, setAside };
}

/** Those of `listKeys` whose items were not read on `day` yet (never, or on an earlier day). */
export async function listsUnreadOn(sql: Sql, listKeys: readonly string[], day: string): Promise<string[]> {
  if (listKeys.length === 0) return [];
  const rows = await sql<{ listKey: string }[]>`
    select list_key as "listKey" from ${sql.t.watch_lists}
    where list_key = any(${listKeys as string[]}::text[])
      and (items_read_on is null or items_read_on < ${day}::date)
    order by list_key`;
  return rows.map((r) => r.listKey);
}
