/**
 * Keeping the record of what regwatch asked for (managed_items) in step with a run, pure. Before
 * anything is sent, every valid desired tax id of a list in use is recorded as asked for; what
 * is neither desired nor on the list any more is forgotten. After sending, items confirmed gone
 * are forgotten, and a list created by the run is recorded with its desired items.
 */

import { isValidTaxId } from "../taxid.ts";
import type { ApplyResult } from "./apply.ts";
import { normaliseDesired } from "./desired-rows.ts";
import type { DesiredList, ReconcilePlan } from "./plan.ts";
import type { ManagedEntry } from "./sql/managed-items.ts";

/** Valid desired tax ids of each list, by name: what regwatch asks for. */
function askedFor(desired: readonly DesiredList[]): Map<string, string[]> {
  return new Map(
    desired.map((d) => [d.listName, [...normaliseDesired(d.taxIds).wanted].filter(isValidTaxId)]),
  );
}

export interface ManagedChanges {
  record: ManagedEntry[];
  forget: ManagedEntry[];
}

/** Before applying: record what each list in use is asked for, forget what is neither wanted nor there. */
export function managedBeforeApply(
  desired: readonly DesiredList[],
  plan: ReconcilePlan,
  remoteItems: ReadonlyMap<string, readonly string[]>,
  managed: ReadonlyMap<string, ReadonlySet<string>>,
): ManagedChanges {
  const asked = askedFor(desired);
  const record: ManagedEntry[] = [];
  const forget: ManagedEntry[] = [];
  for (const list of plan.lists) {
    if (list.listKey === null) continue;
    const wanted = asked.get(list.listName) ?? [];
    record.push({ listKey: list.listKey, listName: list.listName, taxIds: wanted });
    const keep = new Set([...wanted, ...(remoteItems.get(list.listKey) ?? [])]);
    const stale = [...(managed.get(list.listKey) ?? [])].filter((id) => !keep.has(id));
    if (stale.length > 0) forget.push({ listKey: list.listKey, listName: list.listName, taxIds: stale });
  }
  return { record, forget };
}

/** After applying: lists the run created (with what they are asked for), and removals confirmed. */
export function managedAfterApply(desired: readonly DesiredList[], applied: ApplyResult): ManagedChanges {
  const asked = askedFor(desired);
  const record: ManagedEntry[] = applied.lists.flatMap((l) =>
    l.created && l.listKey !== null
      ? [{ listKey: l.listKey, listName: l.listName, taxIds: asked.get(l.listName) ?? [] }]
      : [],
  );
  const keys = new Map(applied.lists.map((l) => [l.listName, l.listKey]));
  const gone = new Map<string, string[]>();
  for (const o of applied.outcomes) {
    if (o.op !== "remove" || (o.verdict !== "done" && o.verdict !== "already")) continue;
    const ids = gone.get(o.listName) ?? [];
    ids.push(o.taxId);
    gone.set(o.listName, ids);
  }
  const forget: ManagedEntry[] = [...gone].flatMap(([listName, taxIds]) => {
    const listKey = keys.get(listName);
    return listKey ? [{ listKey, listName, taxIds }] : [];
  });
  return { record, forget };
}
