/**
 * One sync or backfill pass: refresh the lists, plan the windows every selected list needs,
 * run them, then fetch every open change file. Shared by the CLI commands and the daemon.
 */
import type { Registry } from "../api/registry.ts";
import type { Config } from "../config.ts";
import { lastCompleteDay } from "../dates.ts";
import type { Sql, Tx } from "../db/connect.ts";
import { loadCoverage } from "../db/coverage.ts";
import { loadWatchLists, saveWatchLists } from "../db/lists.ts";
import { UsageError } from "../errors.ts";
import type { Logger } from "../logger.ts";
import { parseStoredFiles } from "../parse/parse-files.ts";
import { redactJson } from "../secrets.ts";
import { fetchOpenFiles } from "./file-fetch.ts";
import { type ListPlanInput, planWindows } from "./plan.ts";
import { noProgress, type ProgressSink } from "./progress.ts";
import { type IntervalDisagreements, runWindows } from "./window-run.ts";

export interface SyncPassOptions {
  kind: "sync" | "backfill";
  /** List keys to limit the pass to; empty means every list. */
  lists?: readonly string[];
  from?: string;
  to?: string;
  refetch?: boolean;
  /** A backfill that raises alerts for the changes it first stores (kept in the run's options). */
  alertHistory?: boolean;
}

export interface SyncDeps {
  sql: Sql;
  registry: Registry;
  config: Config;
  log: Logger;
  runId: number | null;
  now?: () => Date;
  progress?: ProgressSink;
  signal?: AbortSignal;
  /** Throws when the run lock is lost; checked before each window commits. */
  verifyLock?: (tx: Tx) => Promise<void>;
}

export type PassStatus = "ok" | "partial" | "failed";

export interface SyncReport {
  status: PassStatus;
  lastComplete: string;
  lists: number;
  windowsPlanned: number;
  windowsDone: number;
  windowsFailed: number;
  windowsSkipped: number;
  changeRequests: number;
  changesWritten: number;
  filesFetched: number;
  filesFailed: number;
  filesRefused: number;
  filesSkipped: number;
  invalidItems: number;
  /** Per list, answers whose interval differed from the asked one (see REGWATCH_CHANGES_END_INCLUSIVE). */
  intervalDisagreements: Record<string, IntervalDisagreements>;
  errors: string[];
  stopped: boolean;
  /** Things worth saying that are not problems: a backfill asked for days before a list existed. */
  notes?: string[];
}

export async function runSyncPass(deps: SyncDeps, options: SyncPassOptions): Promise<SyncReport> {
  const progress = deps.progress ?? noProgress;
  const now = deps.now ?? (() => new Date());
  // The 07:00 data-load rule is the registry's, whatever zone the schedule runs in.
  const lastComplete = lastCompleteDay(now(), deps.config.registryTz);

  const remote = await deps.registry.watch.lists();
  await saveWatchLists(deps.sql, remote.lists);
  const known = await loadWatchLists(deps.sql);
  const wanted = options.lists ?? [];
  const unknown = wanted.filter((key) => !known.some((l) => l.listKey === key));
  if (unknown.length > 0) {
    throw new UsageError(
      `--list ${unknown.join(", ")}: no such watch list (known: ${known.map((l) => l.listKey).join(", ") || "none"})`,
    );
  }
  const selected = wanted.length > 0 ? known.filter((l) => wanted.includes(l.listKey)) : known;
  const coverage = await loadCoverage(
    deps.sql,
    selected.map((l) => l.listKey),
  );

  // The registry reports an item's changes only from after it was added, so a backfill from before
  // a list existed finds nothing for those days: say so, or an empty result looks like a fault.
  const notes = selected
    .filter((l) => options.from && l.createdAt && options.from < l.createdAt)
    .map(
      (l) =>
        `list ${l.listName} (${l.listKey}) was created on ${l.createdAt}: the registry has no changes of it before that day`,
    );
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
  progress.plan({ windows: windows.length, files: 0 });
  deps.log.info({ lists: selected.length, windows: windows.length, lastComplete }, "plan ready");

  const w = await runWindows(windows, {
    sql: deps.sql,
    watch: deps.registry.watch,
    log: deps.log,
    runId: deps.runId,
    concurrency: deps.config.concurrency,
    limiter: deps.registry.limiters.get(deps.registry.watchOrigin),
    progress,
    lastComplete,
    endInclusive: deps.config.changesEndInclusive,
    verifyLock: deps.verifyLock,
    signal: deps.signal,
  });
  if (w.fatal) throw w.fatal;

  const f = await fetchOpenFiles({
    sql: deps.sql,
    download: (path, signal) => deps.registry.downloadFile(path, signal),
    concurrency: deps.config.concurrency,
    progress,
    signal: deps.signal,
  });
  if (f.fatal) throw f.fatal;

  await parseStoredFiles(deps.sql, { signal: deps.signal });
  const stopped = deps.signal?.aborted ?? false;
  const incomplete = w.windowsFailed + w.windowsSkipped + f.failed + f.skipped > 0;
  return {
    status: incomplete ? "partial" : "ok",
    lastComplete,
    lists: selected.length,
    windowsPlanned: windows.length,
    windowsDone: w.windowsDone,
    windowsFailed: w.windowsFailed,
    windowsSkipped: w.windowsSkipped,
    changeRequests: w.requests,
    changesWritten: w.changes,
    filesFetched: f.fetched,
    filesFailed: f.failed,
    filesRefused: f.refused,
    filesSkipped: f.skipped,
    invalidItems: w.invalidItems,
    intervalDisagreements: w.disagreements,
    errors: redactJson([...w.errors, ...f.errors].slice(0, 20)),
    stopped,
    ...(notes.length > 0 ? { notes } : {}),
  };
}
