/**
 * The items of every list a pass covers, managed or not, read into watched_items at most once a
 * day per list (the registry's day). Without them a business on a list regwatch does not manage
 * looks watched by nobody, and `payments check` would call it `not_watched`. A list reconcile
 * already read today is not read again. The reads go through the same paced client as the rest.
 */
import pLimit from "p-limit";
import { ApiError } from "../api/errors.ts";
import type { WatchClient } from "../api/watch-client.ts";
import type { Sql } from "../db/connect.ts";
import { listsUnreadOn, type StoredList, saveWatchedItems } from "../run/lists.ts";

export interface ListItemsDeps {
  sql: Sql;
  watch: Pick<WatchClient, "items">;
  concurrency: number;
  signal?: AbortSignal;
}

export interface ListItemsResult {
  /** Item requests sent. */
  requests: number;
  /** Lists whose items were stored. */
  read: number;
  /** Why a list's items could not be read; the stored copy stays as it was and is read again next time. */
  errors: string[];
  /** Things worth saying: items set aside because their tax id is not a tax base number. */
  notes: string[];
}

export async function refreshListItems(
  deps: ListItemsDeps,
  lists: readonly StoredList[],
  today: string,
): Promise<ListItemsResult> {
  const result: ListItemsResult = { requests: 0, read: 0, errors: [], notes: [] };
  const unread = new Set(
    await listsUnreadOn(
      deps.sql,
      lists.map((l) => l.listKey),
      today,
    ),
  );
  const limit = pLimit(deps.concurrency);
  await Promise.all(
    lists
      .filter((l) => unread.has(l.listKey))
      .map((list) =>
        limit(async () => {
          if (deps.signal?.aborted) return;
          result.requests++;
          try {
            const items = await deps.watch.items(list.listKey);
            const { setAside } = await saveWatchedItems(deps.sql, list.listKey, items, today);
            result.read++;
            if (setAside.length > 0) {
              result.notes.push(
                `list ${list.listName} (${list.listKey}): ${setAside.length} item(s) whose tax id is not a tax base number were not stored`,
              );
            }
          } catch (error) {
            if (!(error instanceof ApiError)) throw error;
            // Deleted since it was listed: the next list refresh marks it so.
            if (error.status === 404) return;
            result.errors.push(
              `reading the items of list ${list.listName} (${list.listKey}): ${error.message}`,
            );
          }
        }),
      ),
  );
  return result;
}
