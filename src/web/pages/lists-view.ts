/**
 * The lists page as data, pure: each desired list next to its remote list with what reconcile
 * would do to it, the remote lists regwatch does not manage, dropped lists left in place, and
 * the item states of v_watch_status per list.
 */
import type { ListPlan } from "../../reconcile/plan.ts";
import type { StoredPlan } from "./lists-plan.ts";

/** Ids shown per category before "and N more". */
const SHOWN = 40;

export interface IdGroup {
  label: string;
  ids: string[];
  more: number;
  /** Tax id → why, for local refusals. */
  reasons: Record<string, string>;
}

function group(label: string, ids: readonly string[], reasons: Record<string, string> = {}): IdGroup | null {
  if (ids.length === 0) return null;
  return { label, ids: ids.slice(0, SHOWN), more: Math.max(0, ids.length - SHOWN), reasons };
}

export function listPlanView(list: ListPlan, stored: StoredPlan) {
  const remote = list.listKey ? stored.remote.find((r) => r.listKey === list.listKey) : undefined;
  const refusals = [...list.invalid, ...list.overCapacity];
  const groups = [
    group(
      "adopted from the remote list (already there, become desired)",
      stored.adoptions.get(list.listName) ?? [],
    ),
    group("to add", list.add),
    group("to remove", list.remove),
    group("held back: refused by the registry lately, sent again later", list.heldBack),
    group("removal held back: refused by the registry lately", list.heldBackRemovals),
    group(
      "not sent",
      refusals.map((r) => r.taxId),
      Object.fromEntries(refusals.map((r) => [r.taxId, r.message])),
    ),
    group("on the list by hand, never asked for by regwatch: kept", list.notRequested),
    group("kept while a refused desired row names them", list.keptForRefusedRows),
  ].filter((g): g is IdGroup => g !== null);
  const states = stored.states.filter((s) => s.listName === list.listName);
  return {
    listName: list.listName,
    prune: list.prune,
    listKey: list.listKey,
    ignoredKeys: list.ignoredKeys,
    remoteCount: list.remoteCount,
    itemsReadOn: remote?.itemsReadOn ?? null,
    keptUndesired: list.keptUndesired,
    emptied: list.emptied,
    inSync: groups.length === 0 && list.listKey !== null,
    groups,
    states,
  };
}

export function listsPageView(stored: StoredPlan) {
  const desiredNames = new Set(stored.plan.lists.map((l) => l.listName));
  return {
    totals: stored.plan.totals,
    notes: stored.plan.notes,
    guards: stored.guards,
    refused: stored.refused,
    lists: stored.plan.lists.map((l) => listPlanView(l, stored)),
    unmanaged: stored.remote
      .filter((r) => !desiredNames.has(r.listName))
      .map((r) => ({ ...r, states: stored.states.filter((s) => s.listName === r.listName) })),
    leftInPlace: stored.plan.drops?.leftInPlace ?? [],
  };
}
