/**
 * A list named on the command line (`--list`) by its name or by its key. Desired lists are kept by
 * name, so a key is turned into the name of its remote list; messages then show both.
 */
import type { Sql } from "../db/connect.ts";
import { chooseRemoteList } from "../reconcile/plan.ts";
import { loadWatchLists } from "../run/lists.ts";

export interface NamedList {
  name: string;
  /** The remote list's key, when the registry has one (the one reconcile would use). */
  key: string | undefined;
}

export async function namedList(sql: Sql, ref: string): Promise<NamedList> {
  const known = await loadWatchLists(sql);
  const byKey = known.find((l) => l.listKey === ref);
  if (byKey) return { name: byKey.listName, key: byKey.listKey };
  const remote = known.map((l) => ({ listKey: l.listKey, listName: l.listName, createdAt: l.createdAt }));
  return { name: ref, key: chooseRemoteList(ref, remote).chosen?.listKey };
}

/** `"suppliers" (wl_123)`, or `"suppliers"` before the list exists remotely. */
export function listLabel(list: NamedList): string {
  return list.key ? `"${list.name}" (${list.key})` : `"${list.name}"`;
}
