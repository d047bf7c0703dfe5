/**
 * A reconcile run's numbers, pure: the outcomes recorded without sending, the status the sent
 * requests give, and the statistics kept in `runs.stats`.
 */

import type { AdoptionPlan } from "./adopt.ts";
import type { ApplyResult, ListResult } from "./apply.ts";
import type { ReconcilePlan } from "./plan.ts";
import type { RequestCounts } from "./remote-state.ts";
import type { ItemOutcome } from "./sql/desired-state.ts";

/** Items refused before sending: invalid tax ids (422) and those beyond a list's capacity (429). */
export function localOutcomes(plan: ReconcilePlan): ItemOutcome[] {
  return plan.lists.flatMap((list) =>
    [...list.invalid, ...list.overCapacity].map((r) => ({
      listName: list.listName,
      taxId: r.taxId,
      op: "add" as const,
      code: r.code,
      message: r.message,
    })),
  );
}

/** applied when every request went through, failed when none did, partial in between. */
export function outcomeStatus(
  applied: ApplyResult,
  requests: RequestCounts,
): "applied" | "partial" | "failed" {
  for (const list of applied.lists) {
    requests.writes += list.requests.ok + list.requests.failed;
    requests.failed += list.requests.failed;
  }
  if (requests.failed === 0) return "applied";
  return requests.failed === requests.writes ? "failed" : "partial";
}

export function statsOf(
  dryRun: boolean,
  plan: ReconcilePlan | null,
  applied: ApplyResult | null,
  requests: RequestCounts,
  adoptions: readonly AdoptionPlan[],
  refusedLists: number,
): Record<string, number | boolean> {
  const stats: Record<string, number | boolean> = { dryRun };
  if (plan) {
    const t = plan.totals;
    Object.assign(stats, {
      lists: t.lists,
      toCreate: t.create,
      toAdd: t.add,
      toRemove: t.remove,
      invalid: t.invalid,
      overCapacity: t.overCapacity,
      heldBack: t.heldBack,
      heldBackRemovals: t.heldBackRemovals,
      notRequested: t.notRequested,
    });
  }
  const adopted = adoptions.reduce((n, a) => n + a.taxIds.length, 0);
  if (adopted > 0) stats[dryRun ? "toAdopt" : "adopted"] = adopted;
  if (refusedLists > 0) stats.refusedLists = refusedLists;
  if (applied) {
    const sum = (pick: (l: ListResult) => number) => applied.lists.reduce((n, l) => n + pick(l), 0);
    Object.assign(stats, {
      created: sum((l) => (l.created ? 1 : 0)),
      added: sum((l) => l.add.done),
      alreadyWatched: sum((l) => l.add.already),
      addRefused: sum((l) => l.add.refused),
      removed: sum((l) => l.remove.done),
      alreadyGone: sum((l) => l.remove.already),
      removeRefused: sum((l) => l.remove.refused),
      unanswered: sum((l) => l.add.unanswered + l.remove.unanswered),
    });
  }
  Object.assign(stats, {
    readRequests: requests.reads,
    writeRequests: requests.writes,
    failedRequests: requests.failed,
  });
  return stats;
}
