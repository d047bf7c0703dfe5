/**
 * Dropped desired lists (`regwatch watch drop-list`): the desired list and its items go, and a
 * row in dropped_lists keeps the fact that the remote list was regwatch's, for reconcile
 * --allow-delete-lists to delete it. Lists never desired have no row and are never deleted. The
 * record of what regwatch asked for on the list (managed_items) goes with the drop.
 */
import type { Sql } from "../../db/connect.ts";
import { forgetManagedList } from "./managed-items.ts";

export interface DroppedList {
  listName: string;
  /** The remote list regwatch used for it, when one was known at the drop. */
  listKey: string | null;
  items: number;
}

/** Drops a desired list and its items; undefined when no desired list has that name. */
export async function dropDesiredList(
  sql: Sql,
  listName: string,
  listKey: string | undefined,
): Promise<DroppedList | undefined> {
  return sql.begin(async (tx) => {
    const [row] = await tx<{ items: number }[]>`
      select count(i.tax_id)::int as items
      from ${tx.t.desired_lists} l left join ${tx.t.desired_items} i using (list_name)
      where l.list_name = ${listName}
      group by l.list_name`;
    if (!row) return undefined;
    // desired_items go with their list (on delete cascade). What regwatch asked for on the remote
    // list is forgotten too: desiring the name again adopts the list as it is then.
    await tx`delete from ${tx.t.desired_lists} where list_name = ${listName}`;
    await forgetManagedList(tx, listName);
    await tx`
      insert into ${tx.t.dropped_lists} (list_name, list_key, items)
      values (${listName}, ${listKey ?? null}, ${row.items})
      on conflict (list_name) do update
        set list_key = excluded.list_key, items = excluded.items, dropped_at = now(), deleted_at = null`;
    return { listName, listKey: listKey ?? null, items: row.items };
  });
}

/** Dropped lists whose remote list is still to be deleted; a name desired again is not among them. */
export async function pendingDroppedLists(sql: Sql): Promise<DroppedList[]> {
  return sql<DroppedList[]>`
    select d.list_name as "listName", d.list_key as "listKey", d.items
    from ${sql.t.dropped_lists} d
    where d.deleted_at is null
      and not exists (select 1 from ${sql.t.desired_lists} l where l.list_name = d.list_name)
    order by d.list_name`;
}

/**
 * Records that these dropped lists' remote lists were deleted (or found gone), and marks the
 * deleted remote lists deleted in watch_lists at once rather than at the next read.
 */
export async function markDroppedListsDeleted(
  sql: Sql,
  listNames: readonly string[],
  deletedKeys: readonly string[],
): Promise<void> {
  if (listNames.length === 0) return;
  await sql`
    update ${sql.t.dropped_lists} set deleted_at = now()
    where list_name = any(${listNames as string[]}::text[]) and deleted_at is null`;
  await sql`
    update ${sql.t.watch_lists} set deleted_at = now()
    where list_key = any(${deletedKeys as string[]}::text[]) and deleted_at is null`;
}
