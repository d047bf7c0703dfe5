/**
 * The reconcile plan, pure: from the desired state and the remote state as just read, what to
 * create, add and remove, what is recorded without being sent, and whether the removal guards
 * allow the plan. No I/O here, so every rule is unit-tested without a database or a registry.
 */
import { type Said, said } from "../said.ts";
import { describeTaxIdProblem } from "../taxid.ts";
import { type DesiredList, type LocalRefusal, normaliseDesired } from "./desired-rows.ts";

export type { DesiredList, LocalRefusal };

/** Largest number of items one watch list may hold (docs/registry.md, "Watch interface"). */
export const LIST_CAPACITY = 2000;

export interface RemoteList {
  listKey: string;
  listName: string;
  createdAt: string | null;
}

export interface ListDeletion {
  listName: string;
  listKey: string;
  /** Items on the remote list now: deleting the list removes them all. */
  items: number;
}

export interface DropPlan {
  /** To delete in this run. */
  delete: ListDeletion[];
  /** Not allowed to delete (no --allow-delete-lists): left in place, dropped locally. */
  leftInPlace: ListDeletion[];
  /** Dropped lists with no remote list any more: nothing to do but record it. */
  gone: string[];
}

export interface PlanInput {
  desired: readonly DesiredList[];
  /** Every remote list (owned or not): ownership is decided here by name. */
  remoteLists: readonly RemoteList[];
  /** Items of the owned remote lists, by list key. */
  remoteItems: ReadonlyMap<string, readonly string[]>;
  /**
   * What regwatch asked for on each remote list, by list key (managed_items, adopted items
   * included). Only these are ever removed: a remote item nobody in regwatch asked for stays.
   */
  managedItems: ReadonlyMap<string, ReadonlySet<string>>;
  /** Tax ids the registry refused recently (404/422), by list name: not sent again yet. */
  heldBack?: ReadonlyMap<string, ReadonlySet<string>>;
  /** Tax ids whose removal the registry refused recently (409), by list name: not sent again yet. */
  heldBackRemovals?: ReadonlyMap<string, ReadonlySet<string>>;
}

export interface PlanOptions {
  chunkSize: number;
  capacity?: number;
}

export interface ListPlan {
  listName: string;
  prune: boolean;
  /** The remote list used; null when it is to be created. */
  listKey: string | null;
  /** Other remote lists with the same name, left untouched. */
  ignoredKeys: string[];
  remoteCount: number;
  add: string[];
  remove: string[];
  /** Remote items that are not desired but stay because prune is off. */
  keptUndesired: number;
  /** Remote items regwatch never asked for (put on the list at the registry by hand): reported, never removed. */
  notRequested: string[];
  /** Remote items a refused desired row most likely means: not removed while that row stands. */
  keptForRefusedRows: string[];
  invalid: LocalRefusal[];
  overCapacity: LocalRefusal[];
  /** Desired, valid, not remote, but refused by the registry recently. */
  heldBack: string[];
  /** Undesired remote items whose removal the registry refused recently (409): not sent again yet. */
  heldBackRemovals: string[];
  /** The list would be left with no item although it has some now. */
  emptied: boolean;
}

export interface ReconcilePlan {
  lists: ListPlan[];
  /** Remarks worth an operator's attention (duplicate remote lists, ...), in the CLI's English. */
  notes: string[];
  /** The same remarks, for the console to say in its reader's language. */
  notesSaid: Said[];
  totals: PlanTotals;
  /** Dropped desired lists: remote lists to delete, left in place, or gone (see drop-plan.ts). */
  drops?: DropPlan;
}

export interface PlanTotals {
  lists: number;
  create: number;
  add: number;
  remove: number;
  invalid: number;
  overCapacity: number;
  heldBack: number;
  heldBackRemovals: number;
  notRequested: number;
  /** Mutating requests the plan needs: list creations plus bulk chunks. */
  writeRequests: number;
}

/**
 * The remote list a desired name maps to. Several remote lists may carry one name: the oldest
 * (created_at, then list_key) is chosen so every run picks the same one.
 */
export function chooseRemoteList(
  name: string,
  remote: readonly RemoteList[],
): { chosen: RemoteList | undefined; ignored: RemoteList[] } {
  const matches = remote
    .filter((l) => l.listName === name)
    .sort((a, b) => compareNullableLast(a.createdAt, b.createdAt) || compareText(a.listKey, b.listKey));
  return { chosen: matches[0], ignored: matches.slice(1) };
}

export function planReconcile(input: PlanInput, options: PlanOptions): ReconcilePlan {
  const capacity = options.capacity ?? LIST_CAPACITY;
  const notesSaid: Said[] = [];
  const lists = [...input.desired]
    .sort((a, b) => compareText(a.listName, b.listName))
    .map((desired) => {
      const { chosen, ignored } = chooseRemoteList(desired.listName, input.remoteLists);
      if (chosen && ignored.length > 0) {
        const left = ignored.map((l) => l.listKey);
        notesSaid.push(
          said(
            "plan.duplicateRemote",
            { list: desired.listName, times: ignored.length + 1, used: chosen.listKey, left },
            `list "${desired.listName}" exists ${ignored.length + 1} times remotely; using ${chosen.listKey} ` +
              `(the oldest) and leaving ${left.join(", ")} untouched`,
          ),
        );
      }
      const remote = chosen ? (input.remoteItems.get(chosen.listKey) ?? []) : [];
      return planList(desired, chosen?.listKey ?? null, remote, {
        capacity,
        heldBack: input.heldBack?.get(desired.listName),
        heldBackRemovals: input.heldBackRemovals?.get(desired.listName),
        managed: chosen ? input.managedItems.get(chosen.listKey) : undefined,
        ignoredKeys: ignored.map((l) => l.listKey),
      });
    });
  return {
    lists,
    notes: notesSaid.map((n) => n.text),
    notesSaid,
    totals: totalsOf(lists, options.chunkSize),
  };
}

function planList(
  desired: DesiredList,
  listKey: string | null,
  remoteIds: readonly string[],
  context: {
    capacity: number;
    heldBack: ReadonlySet<string> | undefined;
    heldBackRemovals: ReadonlySet<string> | undefined;
    managed: ReadonlySet<string> | undefined;
    ignoredKeys: string[];
  },
): ListPlan {
  const remote = new Set(remoteIds);
  const { wanted, unreadable, meant } = normaliseDesired(desired.taxIds);
  const invalid: LocalRefusal[] = [...unreadable];
  const candidates: string[] = [];
  const heldBack: string[] = [];
  for (const taxId of wanted) {
    if (remote.has(taxId)) continue;
    const problem = describeTaxIdProblem(taxId);
    if (problem) invalid.push({ taxId, code: 422, message: `not sent: ${problem}` });
    else if (context.heldBack?.has(taxId)) heldBack.push(taxId);
    else candidates.push(taxId);
  }
  // A remote item goes only when no desired row, once normalised, names it, and regwatch itself
  // asked for it once: what someone else put on the list is theirs.
  const notWanted = [...remote].filter((taxId) => !wanted.has(taxId)).sort(compareText);
  const keptForRefusedRows = notWanted.filter((taxId) => meant.has(taxId));
  const unasked = notWanted.filter((taxId) => !meant.has(taxId));
  const notRequested = unasked.filter((taxId) => !context.managed?.has(taxId));
  const undesired = unasked.filter((taxId) => context.managed?.has(taxId));
  const heldBackRemovals = desired.prune
    ? undesired.filter((taxId) => context.heldBackRemovals?.has(taxId))
    : [];
  const remove = desired.prune ? undesired.filter((taxId) => !context.heldBackRemovals?.has(taxId)) : [];
  const staying = remote.size - remove.length;
  const room = Math.max(0, context.capacity - staying);
  const add = candidates.slice(0, room);
  const overCapacity = candidates.slice(room).map(
    (taxId): LocalRefusal => ({
      taxId,
      code: 429,
      message:
        `not sent: list "${desired.listName}" is full; ${staying} items stay and the ` +
        `${context.capacity}-item limit leaves room for ${room} of ${candidates.length} additions`,
    }),
  );
  return {
    listName: desired.listName,
    prune: desired.prune,
    listKey,
    ignoredKeys: context.ignoredKeys,
    remoteCount: remote.size,
    add,
    remove,
    keptUndesired: desired.prune ? 0 : undesired.length,
    notRequested,
    keptForRefusedRows,
    invalid,
    overCapacity,
    heldBack,
    heldBackRemovals,
    emptied: remote.size > 0 && staying === 0 && add.length === 0,
  };
}

function totalsOf(lists: readonly ListPlan[], chunkSize: number): PlanTotals {
  const totals: PlanTotals = {
    lists: lists.length,
    create: 0,
    add: 0,
    remove: 0,
    invalid: 0,
    overCapacity: 0,
    heldBack: 0,
    heldBackRemovals: 0,
    notRequested: 0,
    writeRequests: 0,
  };
  for (const list of lists) {
    if (list.listKey === null) totals.create++;
    totals.add += list.add.length;
    totals.remove += list.remove.length;
    totals.invalid += list.invalid.length;
    totals.overCapacity += list.overCapacity.length;
    totals.heldBack += list.heldBack.length;
    totals.heldBackRemovals += list.heldBackRemovals.length;
    totals.notRequested += list.notRequested.length;
    totals.writeRequests +=
      Math.ceil(list.add.length / chunkSize) + Math.ceil(list.remove.length / chunkSize);
  }
  totals.writeRequests += totals.create;
  return totals;
}

/** Whether applying the plan would change anything remotely. */
export function hasChanges(plan: ReconcilePlan): boolean {
  return plan.totals.create + plan.totals.add + plan.totals.remove + (plan.drops?.delete.length ?? 0) > 0;
}

export interface GuardOptions {
  maxRemovals: number;
  allowEmpty: boolean;
}

/** Why the plan must not be applied as it stands; each message says how to allow it. Empty when it may. */
export function guardProblems(plan: ReconcilePlan, options: GuardOptions): string[] {
  return guardSaid(plan, options).map((p) => p.text);
}

/** guardProblems as sentences the console says in its reader's language. */
export function guardSaid(plan: ReconcilePlan, options: GuardOptions): Said[] {
  const problems: Said[] = [];
  // Deleting a dropped list removes its items: they count like removals.
  const deleted = itemsDeleted(plan.drops);
  const removals = plan.totals.remove + deleted;
  if (removals > options.maxRemovals) {
    const lists = plan.drops?.delete.length ?? 0;
    const what = deleted > 0 ? ` (${deleted} of them by deleting ${lists} dropped list(s))` : "";
    problems.push(
      said(
        "guard.maxRemovals",
        { removals, deleted, lists, max: options.maxRemovals },
        `the plan removes ${removals} items${what}, more than the ${options.maxRemovals} allowed; ` +
          `check desired_items, then rerun with --max-removals ${removals} to allow it`,
      ),
    );
  }
  if (!options.allowEmpty) {
    for (const list of plan.lists.filter((l) => l.emptied)) {
      problems.push(
        said(
          "guard.emptied",
          { count: list.remoteCount, list: list.listName },
          `the plan removes all ${list.remoteCount} items of list "${list.listName}" and leaves it empty; ` +
            `rerun with --allow-empty to allow it (or set prune = false in desired_lists to keep them)`,
        ),
      );
    }
  }
  return problems;
}

/** Items the deletions of dropped lists remove: they count toward --max-removals like removals. */
export function itemsDeleted(drops: DropPlan | undefined): number {
  return (drops?.delete ?? []).reduce((n, d) => n + d.items, 0);
}

/** Splits ids into consecutive chunks of at most `size`: the fewest bulk requests. */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  if (!(Number.isInteger(size) && size > 0))
    throw new RangeError(`chunk size must be a positive integer, got ${size}`);
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareNullableLast(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return compareText(a, b);
}
