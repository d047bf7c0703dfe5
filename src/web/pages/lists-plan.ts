/**
 * The lists page's plan: what `regwatch reconcile --dry-run` would plan, computed from what the
 * database last stored of the remote lists instead of asking the registry, so the page is
 * read-only and costs no request. The same pure planners reconcile uses (src/reconcile/) decide.
 */
import type { Config } from "../../config.ts";
import type { Sql } from "../../db/connect.ts";
import { planAdoptions, withAdopted, withAdoptedManaged } from "../../reconcile/adopt.ts";
import { checkDesiredLists, type RefusedList } from "../../reconcile/desired-rows.ts";
import { planDrops } from "../../reconcile/drop-plan.ts";
import { guardSaid, planReconcile, type ReconcilePlan } from "../../reconcile/plan.ts";
import { DEFAULT_MAX_REMOVALS } from "../../reconcile/reconcile.ts";
import {
  loadDesiredState,
  recentAddRefusals,
  recentRemoveRefusals,
} from "../../reconcile/sql/desired-state.ts";
import { pendingDroppedLists } from "../../reconcile/sql/dropped-lists.ts";
import { loadManaged } from "../../reconcile/sql/managed-items.ts";
import { loadWatchLists, type StoredList } from "../../run/lists.ts";
import type { Said } from "../../said.ts";
import { readStoredItems, readWatchStateCounts, type WatchStateCount } from "../sql/lists.ts";

/** How long a refusal holds an id back (reconcile's default). */
const REFUSAL_HOLD_MS = 12 * 3600_000;

export interface StoredPlan {
  plan: ReconcilePlan;
  /** Remote lists as last stored, live ones. */
  remote: StoredList[];
  /** Items to adopt per list name (remote items no desired row names yet). */
  adoptions: Map<string, string[]>;
  refused: RefusedList[];
  /** What a real run would refuse (removal guards at their defaults). */
  guards: Said[];
  states: WatchStateCount[];
}

export async function planFromStored(
  sql: Sql,
  config: Pick<Config, "bulkChunkSize">,
  now: Date,
): Promise<StoredPlan> {
  const checked = checkDesiredLists(await loadDesiredState(sql));
  const stored = await loadWatchLists(sql);
  const remoteLists = stored.map((l) => ({
    listKey: l.listKey,
    listName: l.listName,
    createdAt: l.createdAt,
  }));
  // Lists whose items were never read are left out of the items map, as reconcile does before reading.
  const read = stored.filter((l) => l.itemsReadOn !== null).map((l) => l.listKey);
  const [remoteItems, managed, dropped, states] = await Promise.all([
    readStoredItems(sql, read),
    loadManaged(
      sql,
      stored.map((l) => l.listKey),
    ),
    pendingDroppedLists(sql),
    readWatchStateCounts(sql),
  ]);
  const adoptions = planAdoptions(checked.accepted, remoteLists, remoteItems, managed.lists);
  const since = new Date(now.getTime() - REFUSAL_HOLD_MS);
  const plan = planReconcile(
    {
      desired: withAdopted(checked.accepted, adoptions),
      remoteLists,
      remoteItems,
      managedItems: withAdoptedManaged(managed.items, adoptions),
      heldBack: await recentAddRefusals(sql, since),
      heldBackRemovals: await recentRemoveRefusals(sql, since),
    },
    { chunkSize: config.bulkChunkSize },
  );
  plan.drops = planDrops(dropped, remoteLists, remoteItems, false);
  return {
    plan,
    remote: stored,
    adoptions: new Map(adoptions.filter((a) => a.taxIds.length > 0).map((a) => [a.listName, a.taxIds])),
    refused: checked.refused,
    guards: guardSaid(plan, { maxRemovals: DEFAULT_MAX_REMOVALS, allowEmpty: false }),
    states,
  };
}
