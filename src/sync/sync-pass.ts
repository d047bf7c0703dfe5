/**
 * One sync or backfill pass: refresh the lists and (once a day) their items, plan the windows
 * every selected list needs, run them, then fetch every open change file. Shared by the CLI
 * commands and the daemon.
 */
import { setMaxListeners } from "node:events";
import type { RegistryClients } from "../api/registry.ts";
import type { Config } from "../config.ts";
import { lastCompleteDay, localDateTime } from "../dates.ts";
import type { Sql } from "../db/connect.ts";
import { coerceError } from "../errors.ts";
import type { Logger } from "../logger.ts";
import { parseStoredFiles } from "../parse/parse-files.ts";
import type { StoredList } from "../run/lists.ts";
import type { RunLock } from "../run/lock.ts";
import { redactJson } from "../secrets.ts";
import { fetchOpenFiles, type WindowFeed } from "./file-fetch.ts";
import { refreshListItems } from "./list-items.ts";
import { parseBehind } from "./parse-behind.ts";
import { type ListPlanInput, planWindows } from "./plan.ts";
import { noProgress, type ProgressSink } from "./progress.ts";
import { selectLists } from "./select-lists.ts";
import { loadCoverage } from "./sql/coverage.ts";
import { reopenSettledFiles } from "./sql/settled-files.ts";
import type { WindowWrite } from "./sql/window.ts";
import { type IntervalDisagreements, runWindows } from "./window-run.ts";

export interface SyncPassOptions {
  kind: "sync" | "backfill";
  /** Lists to limit the pass to, by key or name (`--list`); empty means every list. */
  lists?: readonly string[];
  from?: string;
  to?: string;
  refetch?: boolean;
  /** A backfill that raises alerts for the changes it first stores (kept in the run's options). */
  alertHistory?: boolean;
}

export interface SyncDeps {
  sql: Sql;
  registry: RegistryClients;
  config: Config;
  log: Logger;
  runId: number | null;
  now?: () => Date;
  progress?: ProgressSink;
  signal?: AbortSignal;
  /**
   * The run lock, checked inside each window's transaction (see WindowWrite.lock) and before each
   * page of files; once its `signal` says it is lost, no request is started any more.
   */
  lock?: WindowWrite["lock"] & Partial<Pick<RunLock, "signal">>;
}

export type PassStatus = "ok" | "partial" | "failed";

export interface SyncReport {
  status: PassStatus;
  lastComplete: string;
  lists: number;
  /** Lists whose items were read into watched_items by this pass (each at most once a day). */
  listItemsRead: number;
  windowsPlanned: number;
  windowsDone: number;
  windowsFailed: number;
  windowsSkipped: number;
  changeRequests: number;
  changesWritten: number;
  filesFetched: number;
  filesFailed: number;
  /** Files failed for good by this pass (the database refuses their body whatever the moment). */
  filesFailedForGood: number;
  filesRefused: number;
  filesSkipped: number;
  invalidItems: number;
  /** Per list, answers whose interval differed from the asked one (see REGWATCH_CHANGES_END_INCLUSIVE). */
  intervalDisagreements: Record<string, IntervalDisagreements>;
  errors: string[];
  stopped: boolean;
  /** Things worth saying that are not problems: a backfill asked for days before a list existed. */
  notes?: string[];
  /** Why the pass failed (status `failed`): an auth error, a lost lock, a lost database. */
  error?: Error;
}

/**
 * Runs one pass and always returns its report: a failure that ends the pass (the key refused,
 * the run lock or the database lost) is status `failed` with its error, never thrown. `selected`
 * are the lists to cover (see selectLists); without them the pass reads and selects them itself.
 */
export async function runSyncPass(
  deps: SyncDeps,
  options: SyncPassOptions,
  selected?: readonly StoredList[],
): Promise<SyncReport> {
  // The 07:00 data-load rule is the registry's, whatever zone the schedule runs in.
  const now = (deps.now ?? (() => new Date()))();
  const lastComplete = lastCompleteDay(now, deps.config.registryTz);
  const today = localDateTime(now, deps.config.registryTz).date;
  try {
    const lists = selected ?? (await selectLists(deps, options.lists));
    return await pass(deps, options, lists, { lastComplete, today });
  } catch (thrown) {
    return { ...emptySyncReport(lastComplete, deps.signal), status: "failed", error: coerceError(thrown) };
  }
}

/** A report with nothing done yet. */
export function emptySyncReport(lastComplete: string, signal?: AbortSignal): SyncReport {
  return {
    status: "ok",
    lastComplete,
    lists: 0,
    listItemsRead: 0,
    windowsPlanned: 0,
    windowsDone: 0,
    windowsFailed: 0,
    windowsSkipped: 0,
    changeRequests: 0,
    changesWritten: 0,
    filesFetched: 0,
    filesFailed: 0,
    filesFailedForGood: 0,
    filesRefused: 0,
    filesSkipped: 0,
    invalidItems: 0,
    intervalDisagreements: {},
    errors: [],
    stopped: signal?.aborted ?? false,
  };
}

async function pass(
  deps: SyncDeps,
  options: SyncPassOptions,
  selected: readonly StoredList[],
  { lastComplete, today }: { lastComplete: string; today: string },
): Promise<SyncReport> {
  const progress = deps.progress ?? noProgress;
  // A lost lock stops the pass as a stop request would, and then fails it with the loss's reason.
  const lost = deps.lock?.signal;
  const stop = deps.signal;
  // A refused key ends the pass as a stop would: windows and files not started are skipped.
  const refused = deps.registry.refusal?.signal;
  const ends = [stop, lost, refused].filter((s): s is AbortSignal => s !== undefined);
  const signal = ends.length > 1 ? AbortSignal.any(ends) : ends[0];
  if (signal) setMaxListeners(0, signal); // every window, file and request in flight listens to it
  deps = { ...deps, signal };
  // Every covered list's items, managed or not, so "on no watch list" means what it says.
  const items = await refreshListItems(
    {
      sql: deps.sql,
      watch: deps.registry.watch,
      concurrency: deps.config.concurrency,
      signal: deps.signal,
    },
    selected,
    today,
  );
  const coverage = await loadCoverage(
    deps.sql,
    selected.map((l) => l.listKey),
  );

  // The registry reports an item's changes only from after it was added, so a backfill from before
  // a list existed finds nothing for those days: say so, or an empty result looks like a fault.
  const notes = [
    ...items.notes,
    ...selected
      .filter((l) => options.from && l.createdAt && options.from < l.createdAt)
      .map(
        (l) =>
          `list ${l.listName} (${l.listKey}) was created on ${l.createdAt}: the registry has no changes of it before that day`,
      ),
  ];
  const inputs: ListPlanInput[] = [];
  for (const list of selected) {
    const start = options.from ?? deps.config.startDate ?? list.createdAt;
    if (!start) {
      deps.log.warn(
        { listKey: list.listKey },
        "list has no created_at and REGWATCH_START_DATE is unset; skipped",
      );
      continue;
    }
    inputs.push({ listKey: list.listKey, start, covered: coverage.get(list.listKey) ?? [] });
  }
  const windows = planWindows(inputs, {
    lastComplete,
    lookbackDays: options.kind === "sync" ? deps.config.lookbackDays : 0,
    from: options.from,
    to: options.to,
    refetch: options.refetch,
  });
  // A refetch is the way back for the files failed for good of its days.
  if (options.refetch && options.from)
    await reopenSettledFiles(deps.sql, {
      from: options.from,
      to: options.to ?? lastComplete,
      listKeys: selected.map((l) => l.listKey),
    });
  progress.plan({ windows: windows.length, files: 0 });
  deps.log.info({ lists: selected.length, windows: windows.length, lastComplete }, "plan ready");

  // Files start as soon as a window commits, beside the windows still running. On a file origin
  // of their own they have its own budget; on the watch origin, windows and files take its turns
  // alternately while both wait (FairShare), so neither starves the other.
  const feed = windowFeed();
  const parse = () =>
    parseStoredFiles(deps.sql, { signal: deps.signal, lastComplete, registryTz: deps.config.registryTz });
  // Fetched files are parsed while others are still fetched, a parse's batch at a time.
  const behind = parseBehind(parse, PARSE_BEHIND_EVERY);
  const filePhase = fetchOpenFiles(
    {
      sql: deps.sql,
      fetchFile: (path, consume, signal) => deps.registry.streamFile(path, consume, signal),
      concurrency: deps.config.concurrency,
      policy: deps.config.fetchFiles,
      progress: {
        plan: (totals) => progress.plan(totals),
        windowDone: (failed) => progress.windowDone(failed),
        filesAdded: (count) => progress.filesAdded(count),
        request: (answered) => progress.request(answered),
        fileDone: (failed) => {
          progress.fileDone(failed);
          if (!failed) behind.fetched();
        },
      },
      signal: deps.signal,
      lock: deps.lock,
    },
    feed,
  );
  // Awaited below once the windows are done; until then a failure must not go unhandled.
  filePhase.catch(() => {});
  let w: Awaited<ReturnType<typeof runWindows>>;
  try {
    w = await runWindows(windows, {
      sql: deps.sql,
      watch: deps.registry.watch,
      log: deps.log,
      runId: deps.runId,
      concurrency: deps.config.concurrency,
      // The watch origin's budget is idle only when nobody waits for it: not at its limiter, and
      // not in either lane of the fair share in front of it.
      limiter: { stats: () => ({ waiting: watchOriginWaiting(deps.registry) }) },
      progress: {
        plan: (totals) => progress.plan(totals),
        windowDone: (failed) => {
          progress.windowDone(failed);
          feed.committed();
        },
        filesAdded: (count) => progress.filesAdded(count),
        fileDone: (failed) => progress.fileDone(failed),
        request: () => progress.request(),
      },
      lastComplete,
      endInclusive: deps.config.changesEndInclusive,
      lock: deps.lock,
      signal: deps.signal,
      listNames: new Map(selected.map((l) => [l.listKey, l.listName])),
    });
  } finally {
    feed.finish();
  }
  const f = await filePhase;
  const parsedBehind = await behind.finish().then(
    () => undefined,
    (error: unknown) => ({ error }),
  );
  const fatal =
    deps.registry.refusal?.error ??
    w.fatal ??
    f.fatal ??
    (lost?.aborted ? (lost.reason as Error) : undefined);
  if (!fatal) {
    if (parsedBehind) throw parsedBehind.error;
    await parse();
  }
  const stopped = stop?.aborted ?? false;
  const incomplete = w.windowsFailed + w.windowsSkipped + f.failed + f.skipped + items.errors.length > 0;
  return {
    status: fatal ? "failed" : incomplete ? "partial" : "ok",
    lastComplete,
    lists: selected.length,
    listItemsRead: items.read,
    windowsPlanned: windows.length,
    windowsDone: w.windowsDone,
    windowsFailed: w.windowsFailed,
    windowsSkipped: w.windowsSkipped,
    changeRequests: w.requests,
    changesWritten: w.changes,
    filesFetched: f.fetched,
    filesFailed: f.failed,
    filesFailedForGood: f.failedForGood,
    filesRefused: f.refused,
    filesSkipped: f.skipped,
    invalidItems: w.invalidItems,
    intervalDisagreements: w.disagreements,
    errors: redactJson([...items.errors, ...w.errors, ...f.errors].slice(0, 20)),
    stopped,
    ...(notes.length > 0 ? { notes } : {}),
    ...(fatal ? { error: fatal } : {}),
  };
}

/** Files fetched between two parses behind the fetches: the parse's own batch. */
const PARSE_BEHIND_EVERY = 200;

/** Tells the file phase when a window has committed and when the windows are all done. */
function windowFeed(): WindowFeed & { committed(): void; finish(): void } {
  let done = false;
  let wake: (() => void) | undefined;
  let pending = false;
  const notify = () => {
    pending = true;
    wake?.();
    wake = undefined;
  };
  return {
    get done() {
      return done;
    },
    next() {
      if (pending || done) {
        pending = false;
        return Promise.resolve(!done);
      }
      return new Promise<boolean>((resolve) => {
        wake = () => {
          pending = false;
          resolve(!done);
        };
      });
    },
    committed: notify,
    finish() {
      done = true;
      notify();
    },
  };
}

/** Callers waiting for the watch origin's turns: at its limiter and in the fair share's lanes. */
function watchOriginWaiting(registry: RegistryClients): number {
  const lanes = Object.values(registry.fairShare.stats()).reduce((n, lane) => n + lane.waiting, 0);
  return lanes + (registry.limiters.get(registry.watchOrigin)?.stats().waiting ?? 0);
}
