/**
 * The lists page as data, pure: each desired list next to its remote list with what reconcile
 * would do to it, the remote lists regwatch does not manage, dropped lists left in place, and
 * the item states of v_watch_status per list.
 */
import type { MessageKey, Translator } from "../../i18n/messages.ts";
import { saidIn } from "../../i18n/said-words.ts";
import type { ListPlan } from "../../reconcile/plan.ts";
import type { StoredPlan } from "./lists-plan.ts";

/** Ids shown per category before "and N more". */
const SHOWN = 40;

export interface IdGroup {
  /** The catalog key of the group's words. */
  label: MessageKey;
  ids: string[];
  more: number;
  /** Tax id → why, for local refusals. */
  reasons: Record<string, string>;
}

function group(
  label: MessageKey,
  ids: readonly string[],
  reasons: Record<string, string> = {},
): IdGroup | null {
  if (ids.length === 0) return null;
  return { label, ids: ids.slice(0, SHOWN), more: Math.max(0, ids.length - SHOWN), reasons };
}

export function listPlanView(list: ListPlan, stored: StoredPlan) {
  const remote = list.listKey ? stored.remote.find((r) => r.listKey === list.listKey) : undefined;
  const refusals = [...list.invalid, ...list.overCapacity];
  const groups = [
    group("lists.group.adopted", stored.adoptions.get(list.listName) ?? []),
    group("lists.group.add", list.add),
    group("lists.group.remove", list.remove),
    group("lists.group.heldBack", list.heldBack),
    group("lists.group.heldBackRemovals", list.heldBackRemovals),
    group(
      "lists.group.notSent",
      refusals.map((r) => r.taxId),
      Object.fromEntries(refusals.map((r) => [r.taxId, r.message])),
    ),
    group("lists.group.notRequested", list.notRequested),
    group("lists.group.keptForRefused", list.keptForRefusedRows),
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

export function listsPageView(stored: StoredPlan, i18n: Translator) {
  const desiredNames = new Set(stored.plan.lists.map((l) => l.listName));
  return {
    totals: stored.plan.totals,
    notes: stored.plan.notesSaid.map((n) => saidIn(i18n, n)),
    guards: stored.guards.map((g) => saidIn(i18n, g)),
    refused: stored.refused.map((r) => ({ listName: r.listName, problem: saidIn(i18n, r.problemSaid) })),
    lists: stored.plan.lists.map((l) => listPlanView(l, stored)),
    unmanaged: stored.remote
      .filter((r) => !desiredNames.has(r.listName))
      .map((r) => ({ ...r, states: stored.states.filter((s) => s.listName === r.listName) })),
    leftInPlace: stored.plan.drops?.leftInPlace ?? [],
  };
}
