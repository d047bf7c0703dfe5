/**
 * The sending half of a reconcile run, once the plan passed its guards: what regwatch asks for is
 * recorded before anything is sent, then the plan is applied, the outcomes recorded, what was
 * removed forgotten, allowed dropped lists deleted, and the changed lists read back.
 */
import type { Sql } from "../db/connect.ts";
import { type ApplyResult, applyPlan } from "./apply.ts";
import { type DeletionResult, deleteDroppedLists } from "./delete-lists.ts";
import { managedAfterApply, managedBeforeApply } from "./managed.ts";
import { type DesiredList, hasChanges, type ReconcilePlan } from "./plan.ts";
import {
  type RemoteDeps,
  type RemoteState,
  type RequestCounts,
  refreshTouched,
  type StoredLists,
} from "./remote-state.ts";
import type { ReconcileContext, ReconcileStatus } from "./run-context.ts";
import { localOutcomes, outcomeStatus } from "./run-stats.ts";
import { saveItemOutcomes } from "./sql/desired-state.ts";
import { forgetManaged, type ManagedEntry, recordManaged } from "./sql/managed-items.ts";

/**
 * Sends the plan: first records what regwatch asks for (so a crash mid-way never leaves an item
 * it added unrecorded), then applies, records the outcomes, forgets what was removed, deletes the
 * dropped lists allowed, and reads back the lists it changed.
 */
export async function applyAndRecord(
  ctx: ReconcileContext,
  runId: number,
  input: {
    plan: ReconcilePlan;
    desired: readonly DesiredList[];
    remote: RemoteState;
    managedItems: ReadonlyMap<string, ReadonlySet<string>>;
    remoteDeps: RemoteDeps;
    adopting: boolean;
  },
  out: { requests: RequestCounts; problems: string[]; stored: StoredLists; deletions: DeletionResult[] },
): Promise<{ status: ReconcileStatus; applied: ApplyResult | null }> {
  const { sql } = ctx.db;
  const { plan, desired, remote } = input;
  const before = managedBeforeApply(desired, plan, remote.items, input.managedItems);
  await saveManaged(sql, runId, before.record, before.forget);
  const applied = hasChanges(plan)
    ? await applyPlan(plan, {
        watch: ctx.registry.watch,
        chunkSize: ctx.config.bulkChunkSize,
        concurrency: ctx.config.concurrency,
        log: ctx.log,
      })
    : null;
  await saveItemOutcomes(sql, runId, [...localOutcomes(plan), ...(applied?.outcomes ?? [])]);
  if (applied) {
    const after = managedAfterApply(desired, applied);
    await saveManaged(sql, runId, after.record, after.forget);
  }
  if (plan.drops) {
    const deps = { sql, watch: ctx.registry.watch };
    out.deletions.push(...(await deleteDroppedLists(deps, plan.drops, out.requests, out.problems)));
  }
  let status: ReconcileStatus = applied
    ? outcomeStatus(applied, out.requests)
    : input.adopting
      ? "applied"
      : "in-sync";
  if (remote.vanished.size > 0 && status !== "failed") {
    status = "partial";
    out.problems.push(...remote.notes);
  }
  if (applied) {
    out.problems.push(...applied.lists.flatMap((l) => l.errors));
    await refreshTouched(input.remoteDeps, applied, out.requests, out.problems, out.stored);
  }
  return { status, applied };
}

async function saveManaged(
  sql: Sql,
  runId: number,
  record: readonly ManagedEntry[],
  forget: readonly ManagedEntry[],
): Promise<void> {
  await recordManaged(sql, runId, record);
  await forgetManaged(sql, forget);
}
