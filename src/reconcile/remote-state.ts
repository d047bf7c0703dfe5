/**
 * What reconcile reads from the registry: every list (stored), the items of the lists it uses and
 * of dropped lists it may delete, and, after changing lists, those lists again. Items are stored
 * with the day they were read, so the sync after it does not read them a second time that day.
 */
import pLimit from "p-limit";
import { ApiError } from "../api/errors.ts";
import type { WatchClient } from "../api/watch-client.ts";
import type { Sql } from "../db/connect.ts";
import { loadWatchLists, type StoredList, saveWatchedItems, saveWatchLists } from "../run/lists.ts";
import { type ApplyResult, touchedListKeys } from "./apply.ts";
import { chooseRemoteList, type DesiredList, type RemoteList } from "./plan.ts";
import type { DroppedList } from "./sql/dropped-lists.ts";

export interface RemoteDeps {
  sql: Sql;
  watch: Pick<WatchClient, "lists" | "items">;
  concurrency: number;
  /** The registry's day: the day items read now are recorded as read. */
  today: string;
}

export interface RequestCounts {
  reads: number;
  writes: number;
  failed: number;
}

/** The watch lists as last stored by this run (read, then read back after changes). */
export interface StoredLists {
  lists?: StoredList[];
}

export interface RemoteState {
  lists: RemoteList[];
  items: Map<string, string[]>;
  /** Desired lists whose remote list vanished between listing and reading: skipped this run. */
  vanished: Set<string>;
  notes: string[];
  /** Why the answer is not trusted (no lists at all where lists were known); nothing is planned then. */
  suspect?: string;
}

/**
 * Stores every remote list, then reads and stores the items of the owned ones. An answer with no
 * list at all where lists were known is not stored and not planned from: re-creating every list
 * on a registry that merely answered badly would double the watched total.
 */
export async function readRemoteState(
  deps: RemoteDeps,
  desired: readonly DesiredList[],
  requests: RequestCounts,
  acceptEmpty: boolean,
  dropped: readonly DroppedList[],
  stored: StoredLists,
): Promise<RemoteState> {
  const { watch } = deps;
  requests.reads++;
  const { lists: fetched } = await watch.lists();
  if (fetched.length === 0 && !acceptEmpty) {
    const known = await loadWatchLists(deps.sql);
    if (known.length > 0) {
      return {
        lists: [],
        items: new Map(),
        vanished: new Set(desired.map((d) => d.listName)),
        notes: [],
        suspect:
          `the registry answered with no watch lists although ${known.length} were known at the last ` +
          "read; nothing was created or changed. If the lists were really deleted, rerun with " +
          "--accept-empty-remote",
      };
    }
  }
  stored.lists = (await saveWatchLists(deps.sql, fetched)).lists;
  const lists: RemoteList[] = fetched.map((l) => ({
    listKey: l.list_key,
    listName: l.list_name,
    createdAt: l.created_at ?? null,
  }));
  const owned = desired.flatMap((d) => chooseRemoteList(d.listName, lists).chosen ?? []);
  // Dropped lists are read too: the plan says how many items deleting each one removes.
  const droppedKeys = new Set(
    dropped.flatMap((d) =>
      d.listKey ? [d.listKey] : (chooseRemoteList(d.listName, lists).chosen?.listKey ?? []),
    ),
  );
  const dropReads = lists.filter(
    (l) => droppedKeys.has(l.listKey) && !owned.some((o) => o.listKey === l.listKey),
  );
  const items = new Map<string, string[]>();
  const vanished = new Set<string>();
  const notes: string[] = [];
  const limit = pLimit(deps.concurrency);
  await Promise.all([
    ...dropReads.map((list) =>
      limit(async () => {
        requests.reads++;
        try {
          items.set(
            list.listKey,
            (await watch.items(list.listKey)).map((w) => w.tax_id),
          );
        } catch (error) {
          // Gone between listing and reading: nothing to delete, the next run finds it so.
          if (!(error instanceof ApiError && error.status === 404)) throw error;
        }
      }),
    ),
    ...owned.map((list) =>
      limit(async () => {
        requests.reads++;
        try {
          const watched = await watch.items(list.listKey);
          const { setAside } = await saveWatchedItems(deps.sql, list.listKey, watched, deps.today);
          if (setAside.length > 0) notes.push(setAsideNote(list, setAside));
          items.set(
            list.listKey,
            watched.map((w) => w.tax_id),
          );
        } catch (error) {
          if (!(error instanceof ApiError && error.status === 404)) throw error;
          vanished.add(list.listName);
          notes.push(
            `list "${list.listName}" (${list.listKey}) vanished between listing and reading its items; ` +
              "skipped this run, the next run sees it as it is then",
          );
        }
      }),
    ),
  ]);
  return { lists, items, vanished, notes };
}

function setAsideNote(list: RemoteList, setAside: readonly string[]): string {
  return (
    `list "${list.listName}" (${list.listKey}) holds ${setAside.length} item(s) whose tax id is not a tax ` +
    `base number (${setAside.slice(0, 3).join(", ")}${setAside.length > 3 ? ", …" : ""}): not stored, ` +
    "never adopted or removed"
  );
}

/**
 * Reads back the lists that were changed, rather than guessing from bulk answers: the registry's
 * own items (with their added_at) and watch counts are what the tables should hold.
 */
export async function refreshTouched(
  deps: RemoteDeps,
  applied: ApplyResult,
  requests: RequestCounts,
  problems: string[],
  stored: StoredLists,
): Promise<void> {
  const keys = touchedListKeys(applied);
  if (keys.length === 0) return;
  try {
    requests.reads++;
    const { lists } = await deps.watch.lists();
    stored.lists = (await saveWatchLists(deps.sql, lists)).lists;
    const limit = pLimit(deps.concurrency);
    await Promise.all(
      keys.map((key) =>
        limit(async () => {
          requests.reads++;
          await saveWatchedItems(deps.sql, key, await deps.watch.items(key), deps.today);
        }),
      ),
    );
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    // The changes are made; only the stored copy is behind, and the next run reads it again.
    problems.push(`reading back the changed lists failed, watched_items may be stale: ${error.message}`);
  }
}
