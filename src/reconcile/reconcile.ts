/**
 * One reconcile run: read the remote state of the owned lists, plan, check the removal guards,
 * apply, record every item's outcome, and read back what was touched; recorded in `runs` through
 * withRun.
 */
import pLimit from "p-limit";
import { ApiError } from "../api/errors.ts";
import type { RegistryClients } from "../api/registry.ts";
import type { Config } from "../config.ts";
import type { Database } from "../db/connect.ts";
import {
  type ItemOutcome,
  loadDesiredState,
  recentAddRefusals,
  recentRemoveRefusals,
  saveItemOutcomes,
} from "../db/desired-state.ts";
import { type DroppedList, markDroppedListsDeleted, pendingDroppedLists } from "../db/dropped-lists.ts";
import { loadWatchLists, type StoredList, saveWatchedItems, saveWatchLists } from "../db/lists.ts";
import type { RunLock } from "../db/lock.ts";
import type { RunTrigger } from "../db/runs.ts";
import type { UsageRecorder } from "../db/usage.ts";
import { type ExitCode, exitCodeOf } from "../errors.ts";
import type { Logger } from "../logger.ts";
import { withRun } from "../run/with-run.ts";
import { type ApplyResult, applyPlan, type ListResult, touchedListKeys } from "./apply.ts";
import { type DropPlan, leftInPlaceNotes, planDrops } from "./drop-plan.ts";
import {
  chooseRemoteList,
  type DesiredList,
  guardProblems,
  hasChanges,
  planReconcile,
  type ReconcilePlan,
  type RemoteList,
} from "./plan.ts";

export interface ReconcileContext {
  config: Pick<Config, "bulkChunkSize" | "concurrency">;
  log: Logger;
  db: Pick<Database, "sql">;
  registry: Pick<RegistryClients, "watch">;
  /** Request counts, flushed while the run goes on and at its end, when given. */
  usage?: UsageRecorder;
  /** The run lock the caller holds (the daemon's job); without it the run takes its own. */
  lock?: RunLock;
  /** Seconds to wait for another run's lock when taking it (`--wait`). */
  waitSeconds?: number;
}

export interface ReconcileOptions {
  /** Read and plan only: no mutating request, nothing written to item_outcomes. */
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

export interface DeletionResult {
  listName: string;
  listKey: string;
  items: number;
  deleted: boolean;
  error?: string;
}
const DEFAULT_REFUSAL_HOLD_MS = 12 * 3600_000;

/** in-sync: nothing to do; pending: a dry run found changes; refused: a guard stopped the run. */
export type ReconcileStatus = "in-sync" | "pending" | "applied" | "partial" | "refused" | "failed";

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
  const requests = { reads: 0, writes: 0, failed: 0 };
  const stored: StoredLists = {};
  let plan: ReconcilePlan | null = null;
  let applied: ApplyResult | null = null;
  const problems: string[] = [];
  const deletions: DeletionResult[] = [];
  let status: ReconcileStatus;
  try {
    const desired = await loadDesiredState(sql);
    const dropped = await pendingDroppedLists(sql);
    const remote = await readRemoteState(
      ctx,
      desired,
      requests,
      options.acceptEmptyRemote ?? false,
      dropped,
      stored,
    );
    const holdSince = new Date(now().getTime() - (options.refusalHoldMs ?? DEFAULT_REFUSAL_HOLD_MS));
    const none = new Map<string, Set<string>>();
    const heldBack = options.retryRefused ? none : await recentAddRefusals(sql, holdSince);
    const heldBackRemovals = options.retryRefused ? none : await recentRemoveRefusals(sql, holdSince);
    plan = planReconcile(
      {
        desired: desired.filter((d) => !remote.vanished.has(d.listName)),
        remoteLists: remote.lists,
        remoteItems: remote.items,
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
    problems.push(
      ...guardProblems(plan, {
        maxRemovals: options.maxRemovals ?? DEFAULT_MAX_REMOVALS,
        allowEmpty: options.allowEmpty ?? false,
      }),
    );
    if (remote.suspect) {
      problems.push(remote.suspect);
      status = "partial";
    } else if (problems.length > 0) status = "refused";
    else if (dryRun) status = hasChanges(plan) ? "pending" : "in-sync";
    else {
      applied = hasChanges(plan)
        ? await applyPlan(plan, {
            watch: ctx.registry.watch,
            chunkSize: ctx.config.bulkChunkSize,
            concurrency: ctx.config.concurrency,
            log: ctx.log,
          })
        : null;
      await saveItemOutcomes(sql, runId, [...localOutcomes(plan), ...(applied?.outcomes ?? [])]);
      if (plan.drops) deletions.push(...(await deleteDroppedLists(ctx, plan.drops, requests, problems)));
      status = applied ? outcomeStatus(applied, requests) : "in-sync";
      if (remote.vanished.size > 0 && status !== "failed") {
        status = "partial";
        problems.push(...remote.notes);
      }
      if (applied) problems.push(...applied.lists.flatMap((l) => l.errors));
      if (applied) await refreshTouched(ctx, applied, requests, problems, stored);
    }
  } catch (error) {
    // Anything but the registry's answer ends the run (withRun records it failed).
    if (!(error instanceof ApiError)) throw error;
    status = "failed";
    problems.push(`reading the registry failed: ${error.message}`);
  }
  const stats = statsOf(dryRun, plan, applied, requests);
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
    requests,
    stats,
    ...(stored.lists ? { lists: stored.lists } : {}),
  };
}

/** The watch lists as last stored by this run (read, then read back after changes). */
interface StoredLists {
  lists?: StoredList[];
}

interface RemoteState {
  lists: RemoteList[];
  items: Map<string, string[]>;
  /** Desired lists whose remote list vanished between listing and reading: skipped this run. */
  vanished: Set<string>;
  notes: string[];
  /** Why the answer is not trusted (no lists at all where lists were known); nothing is planned then. */
  suspect?: string;
}

/**
 * Stores every remote list, then reads and stores the items of the owned ones. An answer with no
 * list at all where lists were known is not stored and not planned from: re-creating every list
 * on a registry that merely answered badly would double the watched total.
 */
async function readRemoteState(
  ctx: ReconcileContext,
  desired: readonly DesiredList[],
  requests: ReconcileReport["requests"],
  acceptEmpty: boolean,
  dropped: readonly DroppedList[],
  stored: StoredLists,
): Promise<RemoteState> {
  const { watch } = ctx.registry;
  requests.reads++;
  const { lists: fetched } = await watch.lists();
  if (fetched.length === 0 && !acceptEmpty) {
    const known = await loadWatchLists(ctx.db.sql);
    if (known.length > 0) {
      return {
        lists: [],
        items: new Map(),
        vanished: new Set(desired.map((d) => d.listName)),
        notes: [],
        suspect:
          `the registry answered with no watch lists although ${known.length} were known at the last ` +
          "read; nothing was created or changed. If the lists were really deleted, rerun with " +
          "--accept-empty-remote",
      };
    }
  }
  stored.lists = (await saveWatchLists(ctx.db.sql, fetched)).lists;
  const lists: RemoteList[] = fetched.map((l) => ({
    listKey: l.list_key,
    listName: l.list_name,
    createdAt: l.created_at ?? null,
  }));
  const owned = desired.flatMap((d) => chooseRemoteList(d.listName, lists).chosen ?? []);
  // Dropped lists are read too: the plan says how many items deleting each one removes.
  const droppedKeys = new Set(
    dropped.flatMap((d) =>
      d.listKey ? [d.listKey] : (chooseRemoteList(d.listName, lists).chosen?.listKey ?? []),
    ),
  );
  const dropReads = lists.filter(
    (l) => droppedKeys.has(l.listKey) && !owned.some((o) => o.listKey === l.listKey),
  );
  const items = new Map<string, string[]>();
  const vanished = new Set<string>();
  const notes: string[] = [];
  const limit = pLimit(ctx.config.concurrency);
  await Promise.all([
    ...dropReads.map((list) =>
      limit(async () => {
        requests.reads++;
        try {
          items.set(
            list.listKey,
            (await watch.items(list.listKey)).map((w) => w.tax_id),
          );
        } catch (error) {
          // Gone between listing and reading: nothing to delete, the next run finds it so.
          if (!(error instanceof ApiError && error.status === 404)) throw error;
        }
      }),
    ),
    ...owned.map((list) =>
      limit(async () => {
        requests.reads++;
        try {
          const watched = await watch.items(list.listKey);
          await saveWatchedItems(ctx.db.sql, list.listKey, watched);
          items.set(
            list.listKey,
            watched.map((w) => w.tax_id),
          );
        } catch (error) {
          if (!(error instanceof ApiError && error.status === 404)) throw error;
          vanished.add(list.listName);
          notes.push(
            `list "${list.listName}" (${list.listKey}) vanished between listing and reading its items; ` +
              "skipped this run, the next run sees it as it is then",
          );
        }
      }),
    ),
  ]);
  return { lists, items, vanished, notes };
}

/**
 * Reads back the lists that were changed, rather than guessing from bulk answers: the registry's
 * own items (with their added_at) and watch counts are what the tables should hold.
 */
async function refreshTouched(
  ctx: ReconcileContext,
  applied: ApplyResult,
  requests: ReconcileReport["requests"],
  problems: string[],
  stored: StoredLists,
): Promise<void> {
  const keys = touchedListKeys(applied);
  if (keys.length === 0) return;
  try {
    requests.reads++;
    const { lists } = await ctx.registry.watch.lists();
    stored.lists = (await saveWatchLists(ctx.db.sql, lists)).lists;
    const limit = pLimit(ctx.config.concurrency);
    await Promise.all(
      keys.map((key) =>
        limit(async () => {
          requests.reads++;
          await saveWatchedItems(ctx.db.sql, key, await ctx.registry.watch.items(key));
        }),
      ),
    );
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    // The changes are made; only the stored copy is behind, and the next run reads it again.
    problems.push(`reading back the changed lists failed, watched_items may be stale: ${error.message}`);
  }
}

/**
 * Deletes the remote lists of dropped desired lists (the plan holds only those allowed). A list
 * already gone counts as deleted; a failed deletion is a problem, and the next run tries again.
 */
async function deleteDroppedLists(
  ctx: ReconcileContext,
  drops: DropPlan,
  requests: ReconcileReport["requests"],
  problems: string[],
): Promise<DeletionResult[]> {
  const results: DeletionResult[] = [];
  for (const d of drops.delete) {
    requests.writes++;
    try {
      await ctx.registry.watch.deleteList(d.listKey, d.listName);
      results.push({ ...d, deleted: true });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.status === 404) {
        results.push({ ...d, deleted: true });
        continue;
      }
      requests.failed++;
      const message = `deleting dropped list "${d.listName}" (${d.listKey}) failed: ${error.message}`;
      problems.push(message);
      results.push({ ...d, deleted: false, error: error.message });
    }
  }
  const deleted = results.filter((r) => r.deleted);
  await markDroppedListsDeleted(
    ctx.db.sql,
    [...drops.gone, ...deleted.map((r) => r.listName)],
    deleted.map((r) => r.listKey),
  );
  return results;
}

/** Items refused before sending: invalid tax ids (422) and those beyond a list's capacity (429). */
function localOutcomes(plan: ReconcilePlan): ItemOutcome[] {
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

function outcomeStatus(applied: ApplyResult, requests: ReconcileReport["requests"]): ReconcileStatus {
  for (const list of applied.lists) {
    requests.writes += list.requests.ok + list.requests.failed;
    requests.failed += list.requests.failed;
  }
  if (requests.failed === 0) return "applied";
  return requests.failed === requests.writes ? "failed" : "partial";
}

function statsOf(
  dryRun: boolean,
  plan: ReconcilePlan | null,
  applied: ApplyResult | null,
  requests: ReconcileReport["requests"],
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
    });
  }
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
