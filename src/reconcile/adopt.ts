/**
 * Adoption, pure: a desired list whose remote list already exists but was never managed by
 * regwatch takes the remote items into its desired items before anything is planned. Whoever
 * put them there wanted them watched; removing them would lose their changes for good (the
 * registry reports an item's changes only from the day it is watched again).
 */
import { normaliseDesired } from "./desired-rows.ts";
import { chooseRemoteList, type DesiredList, type RemoteList } from "./plan.ts";

/** What is on the list can be adopted only when it is a tax base number. */
const TAX_BASE = /^[0-9]{8}$/;

export interface AdoptionPlan {
  listName: string;
  listKey: string;
  /** Remote items to add to desired_items: those no desired row names yet. */
  taxIds: string[];
  /** Every tax base number on the remote list: all regwatch's from now on. */
  remote: string[];
}

/**
 * One adoption per desired list whose chosen remote list (the one reconcile would use) is not
 * managed yet and whose items were read, even when nothing is left to adopt: the list becomes
 * managed either way.
 */
export function planAdoptions(
  desired: readonly DesiredList[],
  remoteLists: readonly RemoteList[],
  remoteItems: ReadonlyMap<string, readonly string[]>,
  managedLists: ReadonlySet<string>,
): AdoptionPlan[] {
  const plans: AdoptionPlan[] = [];
  for (const list of desired) {
    const chosen = chooseRemoteList(list.listName, remoteLists).chosen;
    if (!chosen || managedLists.has(chosen.listKey)) continue;
    const items = remoteItems.get(chosen.listKey);
    if (!items) continue;
    const { wanted } = normaliseDesired(list.taxIds);
    const remote = [...new Set(items.filter((id) => TAX_BASE.test(id)))].sort();
    plans.push({
      listName: list.listName,
      listKey: chosen.listKey,
      taxIds: remote.filter((id) => !wanted.has(id)),
      remote,
    });
  }
  return plans;
}

/** The desired lists with the adopted items added after the items already desired. */
export function withAdopted(
  desired: readonly DesiredList[],
  adoptions: readonly AdoptionPlan[],
): DesiredList[] {
  const byName = new Map(adoptions.map((a) => [a.listName, a.taxIds]));
  return desired.map((d) => {
    const adopted = byName.get(d.listName);
    return adopted && adopted.length > 0 ? { ...d, taxIds: [...d.taxIds, ...adopted] } : d;
  });
}

/** What regwatch asked for, with the adopted lists' remote items counted in. */
export function withAdoptedManaged(
  managed: ReadonlyMap<string, ReadonlySet<string>>,
  adoptions: readonly AdoptionPlan[],
): Map<string, Set<string>> {
  const result = new Map([...managed].map(([key, ids]) => [key, new Set(ids)]));
  for (const a of adoptions) {
    const ids = result.get(a.listKey) ?? new Set<string>();
    for (const id of a.remote) ids.add(id);
    result.set(a.listKey, ids);
  }
  return result;
}
