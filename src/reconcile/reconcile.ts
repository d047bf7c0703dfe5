/**
 * One reconcile run: check the desired rows, read the remote state of the lists in use, adopt the
 * items of remote lists regwatch starts to manage, plan, check the removal guards, apply, record
 * every item's outcome and what regwatch asked for, and read back what was touched; recorded in
 * `runs` through withRun.
 */
import { ApiError } from "../api/errors.ts";
import { localDateTime } from "../dates.ts";
import { type ExitCode, exitCodeOf } from "../errors.ts";
import type { StoredList } from "../run/lists.ts";
import type { RunTrigger } from "../run/runs.ts";
import { withRun } from "../run/with-run.ts";
import { type AdoptionPlan, planAdoptions, withAdopted, withAdoptedManaged } from "./adopt.ts";
import type { ApplyResult, ListResult } from "./apply.ts";
import { applyAndRecord } from "./apply-and-record.ts";
import type { DeletionResult } from "./delete-lists.ts";
import { checkDesiredLists, type RefusedList, refusedListProblems } from "./desired-rows.ts";
import { leftInPlaceNotes, planDrops } from "./drop-plan.ts";
import { guardProblems, hasChanges, planReconcile, type ReconcilePlan } from "./plan.ts";
import { type RemoteDeps, readRemoteState, type StoredLists } from "./remote-state.ts";
import type { ReconcileContext, ReconcileStatus } from "./run-context.ts";
import { statsOf } from "./run-stats.ts";
import { loadDesiredState, recentAddRefusals, recentRemoveRefusals } from "./sql/desired-state.ts";
import { pendingDroppedLists } from "./sql/dropped-lists.ts";
import { adoptRemoteItems, loadManaged } from "./sql/managed-items.ts";

export type { DeletionResult } from "./delete-lists.ts";
export type { ReconcileContext, ReconcileStatus };

export interface ReconcileOptions {
  /** Read and plan only: no mutating request, nothing adopted, nothing written to item_outcomes. */
  dryRun?: boolean;
  /** Most removals a run may make in total (default 100). */
  maxRemovals?: number;
  /** Allow a run to remove every item of a list. */
  allowEmpty?: boolean;
  /** Delete the remote lists of dropped desired lists (left in place otherwise). */
  allowDeleteLists?: boolean;
  /** Resend ids the registry refused (404/422 adds, 409 removals) even within the hold period. */
  retryRefused?: boolean;
  /** Trust an answer with no lists at all although lists were known before (suspect otherwise). */
  acceptEmptyRemote?: boolean;
  /** How long a 404/422 from the registry holds an id back (default 12 h: until the next data load). */
  refusalHoldMs?: number;
  trigger?: RunTrigger;
  /** Items per list at most (default the registry's 2000). */
  capacity?: number;
  now?: () => Date;
}

export const DEFAULT_MAX_REMOVALS = 100;

const DEFAULT_REFUSAL_HOLD_MS = 12 * 3600_000;

export interface Adoption {
  listName: string;
  listKey: string;
  taxIds: string[];
}

export interface ReconcileReport {
  runId: number;
  dryRun: boolean;
  status: ReconcileStatus;
  exitCode: ExitCode;
  /** Null when the remote state could not be read. */
  plan: ReconcilePlan | null;
  /** Why the run was refused or failed, or what went wrong on the side. */
  problems: string[];
  /** Per list, what applying did (empty unless applied). */
  results: ListResult[];
  /** Remote lists of dropped desired lists deleted by this run (or whose deletion failed). */
  deletions: DeletionResult[];
  /**
   * Remote lists regwatch started to manage with items already on them, and the items taken into
   * desired_items (with --dry-run: those it would take).
   */
  adoptions: Adoption[];
  /** Desired lists left out because their name is one the CLI would refuse; nothing sent for them. */
  refusedLists: RefusedList[];
  /** Requests made (attempts of retried requests count once). */
  requests: { reads: number; writes: number; failed: number };
  stats: Record<string, number | boolean>;
  /** The watch lists as this run stored them (what a sync after it covers); not in the JSON. */
  lists?: StoredList[];
  /** A failure outside the registry's answers (the database lost); not in the JSON. */
  failure?: Error;
}

const RUN_STATUS_OF = {
  "in-sync": "ok",
  applied: "ok",
  pending: "ok",
  partial: "partial",
  refused: "failed",
  failed: "failed",
} as const satisfies Record<ReconcileStatus, string>;

/**
 * Makes the owned remote lists match the desired state, as one recorded run (see withRun: under
 * the lock the caller holds, or one taken here). Always returns its report; a failure the report
 * cannot describe (the database lost) is status `failed` with `failure` set.
 */
export async function reconcile(
  ctx: ReconcileContext,
  options: ReconcileOptions = {},
): Promise<ReconcileReport> {
  const dryRun = options.dryRun ?? false;
  const run = await withRun(
    { sql: ctx.db.sql, log: ctx.log, lock: ctx.lock, waitSeconds: ctx.waitSeconds, usage: ctx.usage },
    {
      kind: "reconcile",
      trigger: options.trigger ?? "cli",
      stats: { dryRun },
      body: async (scope) => {
        const report = await reconcileRun(ctx, options, scope.runId);
        const { status } = report;
        const error =
          status === "refused" || status === "failed" || status === "partial"
            ? report.problems.join("\n")
            : undefined;
        return { status: RUN_STATUS_OF[status], stats: report.stats, error, result: report };
      },
    },
  );
  if (run.result) return run.result;
  const failure = run.error ?? new Error("reconcile failed");
  return {
    runId: run.runId,
    dryRun,
    status: "failed",
    exitCode: exitCodeOf(failure),
    plan: null,
    problems: [failure.message],
    results: [],
    deletions: [],
    adoptions: [],
    refusedLists: [],
    requests: { reads: 0, writes: 0, failed: 0 },
    stats: { dryRun },
    failure,
  };
}

async function reconcileRun(
  ctx: ReconcileContext,
  options: ReconcileOptions,
  runId: number,
): Promise<ReconcileReport> {
  const { sql } = ctx.db;
  const dryRun = options.dryRun ?? false;
  const now = options.now ?? (() => new Date());
  const remoteDeps: RemoteDeps = {
    sql,
    watch: ctx.registry.watch,
    concurrency: ctx.config.concurrency,
    today: localDateTime(now(), ctx.config.registryTz).date,
  };
  const requests = { reads: 0, writes: 0, failed: 0 };
  const stored: StoredLists = {};
  let plan: ReconcilePlan | null = null;
  let applied: ApplyResult | null = null;
  let adoptions: AdoptionPlan[] = [];
  let refusedLists: RefusedList[] = [];
  const problems: string[] = [];
  const deletions: DeletionResult[] = [];
  let status: ReconcileStatus;
  try {
    const checked = checkDesiredLists(await loadDesiredState(sql));
    refusedLists = checked.refused;
    const dropped = await pendingDroppedLists(sql);
    const remote = await readRemoteState(
      remoteDeps,
      checked.accepted,
      requests,
      options.acceptEmptyRemote ?? false,
      dropped,
      stored,
    );
    const live = checked.accepted.filter((d) => !remote.vanished.has(d.listName));
    const managed = await loadManaged(
      sql,
      remote.lists.map((l) => l.listKey),
    );
    // Adoption comes before the plan: what is on a list regwatch starts to manage is desired.
    adoptions = remote.suspect ? [] : planAdoptions(live, remote.lists, remote.items, managed.lists);
    if (!dryRun) await adoptRemoteItems(sql, runId, remoteDeps.today, adoptions);
    const desired = withAdopted(live, adoptions);
    const managedItems = withAdoptedManaged(managed.items, adoptions);
    const holdSince = new Date(now().getTime() - (options.refusalHoldMs ?? DEFAULT_REFUSAL_HOLD_MS));
    const none = new Map<string, Set<string>>();
    const heldBack = options.retryRefused ? none : await recentAddRefusals(sql, holdSince);
    const heldBackRemovals = options.retryRefused ? none : await recentRemoveRefusals(sql, holdSince);
    plan = planReconcile(
      {
        desired,
        remoteLists: remote.lists,
        remoteItems: remote.items,
        managedItems,
        heldBack,
        heldBackRemovals,
      },
      { chunkSize: ctx.config.bulkChunkSize, capacity: options.capacity },
    );
    plan.notes.push(...remote.notes);
    if (!remote.suspect) {
      plan.drops = planDrops(dropped, remote.lists, remote.items, options.allowDeleteLists ?? false);
      plan.notes.push(...leftInPlaceNotes(plan.drops));
    }
    const guards = guardProblems(plan, {
      maxRemovals: options.maxRemovals ?? DEFAULT_MAX_REMOVALS,
      allowEmpty: options.allowEmpty ?? false,
    });
    problems.push(...guards);
    const adopting = adoptions.some((a) => a.taxIds.length > 0);
    if (remote.suspect) {
      problems.push(remote.suspect);
      status = "partial";
    } else if (guards.length > 0) status = "refused";
    else if (dryRun) status = hasChanges(plan) || adopting ? "pending" : "in-sync";
    else {
      ({ status, applied } = await applyAndRecord(
        ctx,
        runId,
        { plan, desired, remote, managedItems, remoteDeps, adopting },
        { requests, problems, stored, deletions },
      ));
    }
  } catch (error) {
    // Anything but the registry's answer ends the run (withRun records it failed).
    if (!(error instanceof ApiError)) throw error;
    status = "failed";
    problems.push(`reading the registry failed: ${error.message}`);
  }
  if (refusedLists.length > 0) {
    // The rest went ahead; the refused lists wait for someone to fix their rows.
    problems.push(...refusedListProblems(refusedLists));
    if (status === "applied" || status === "in-sync" || status === "pending") status = "partial";
  }
  const stats = statsOf(dryRun, plan, applied, requests, adoptions, refusedLists.length);
  if (plan?.drops) {
    stats.toDeleteLists = plan.drops.delete.length;
    stats.deletedLists = deletions.filter((d) => d.deleted).length;
    stats.listsLeftInPlace = plan.drops.leftInPlace.length;
  }
  ctx.log.info({ runId, status, ...stats }, "reconcile finished");
  return {
    runId,
    dryRun,
    status,
    exitCode: exitCodeOf({ status }),
    plan,
    problems,
    results: applied?.lists ?? [],
    deletions,
    adoptions: adoptions
      .filter((a) => a.taxIds.length > 0)
      .map(({ listName, listKey, taxIds }) => ({ listName, listKey, taxIds })),
    refusedLists,
    requests,
    stats,
    ...(stored.lists ? { lists: stored.lists } : {}),
  };
}
