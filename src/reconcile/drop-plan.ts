/**
 * What becomes of dropped desired lists, pure: each one's remote list is deleted (only when the
 * operator allows it with --allow-delete-lists), left in place, or already gone. The remote list
 * is the one regwatch used for the name: the key recorded at the drop, else the oldest of that
 * name (the rule reconcile follows for desired lists). Other lists of the same name, which
 * regwatch left untouched, are never deleted.
 */
import { chooseRemoteList, type DropPlan, type ListDeletion, type RemoteList } from "./plan.ts";

export type { DropPlan, ListDeletion };

export interface DroppedListInput {
  listName: string;
  listKey: string | null;
}

export function planDrops(
  dropped: readonly DroppedListInput[],
  remoteLists: readonly RemoteList[],
  remoteItems: ReadonlyMap<string, readonly string[]>,
  allowDelete: boolean,
): DropPlan {
  const plan: DropPlan = { delete: [], leftInPlace: [], gone: [] };
  for (const list of dropped) {
    const remote = list.listKey
      ? remoteLists.find((l) => l.listKey === list.listKey)
      : chooseRemoteList(list.listName, remoteLists).chosen;
    if (!remote) {
      plan.gone.push(list.listName);
      continue;
    }
    const deletion = {
      listName: list.listName,
      listKey: remote.listKey,
      items: remoteItems.get(remote.listKey)?.length ?? 0,
    };
    (allowDelete ? plan.delete : plan.leftInPlace).push(deletion);
  }
  return plan;
}

export function leftInPlaceNotes(plan: DropPlan): string[] {
  return plan.leftInPlace.map(
    (d) =>
      `list "${d.listName}" (${d.listKey}): left in place, dropped locally; ` +
      `rerun with --allow-delete-lists to delete it and its ${d.items} item(s)`,
  );
}
