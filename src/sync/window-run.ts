/**
 * Runs planned windows concurrently under the shared rate limiter. Each answered window is
 * checked item by item and written in one transaction; only the asked, answered and complete days
 * become covered. When the server answers for less than was asked, the rest is asked again at
 * once, and a window that makes no progress is reported, not retried forever.
 */
import { ApiError } from "../api/errors.ts";
import type { ChangesPage, WatchClient } from "../api/watch-client.ts";
import type { Sql } from "../db/connect.ts";
import { classifyDatabaseError, DatabaseUnavailableError, isRetryableConflict } from "../db/db-errors.ts";
import { coerceError } from "../errors.ts";
import type { Logger } from "../logger.ts";
import { RunLockLostError } from "../run/lock.ts";
import { redactSecrets } from "../secrets.ts";
import { answeredDays, disagreement, intersect, requestEnd } from "./coverage-rule.ts";
import { halves, type Interval, remainder, type Window } from "./plan.ts";
import type { ProgressSink } from "./progress.ts";
import { type WindowWrite, writeWindow } from "./sql/window.ts";
import { stoppable } from "./stoppable.ts";
import { validateItems } from "./validate-items.ts";
import { mayStart, runPool } from "./window-pool.ts";
import { WriteBehind } from "./write-behind.ts";

const MAX_FOLLOW_UPS = 7;
/**
 * Answers refused for their size: the window is asked again in halves, down to single days. Not a
 * series past its page bound (TOO_MANY_PAGES): that bound holds far more than a week of one list,
 * so a registry that never stops saying has_next would say it to every half too; the window fails.
 */
const TOO_BIG: readonly string[] = ["TOO_LARGE"];
/** Bound on windows in flight beyond REGWATCH_CONCURRENCY, as a multiple of it (memory). */
export const MAX_IN_FLIGHT_FACTOR = 4;
/** Attempts of one window's transaction when it deadlocks or fails to serialise. */
const WRITE_ATTEMPTS = 5;

export interface WindowRunOptions {
  sql: Sql;
  watch: WatchClient;
  log: Logger;
  runId: number | null;
  /** Windows in flight at least (REGWATCH_CONCURRENCY). */
  concurrency: number;
  /**
   * The watch origin's limiter: while nobody waits at it, the budget is idle, so one more window
   * starts (up to MAX_IN_FLIGHT_FACTOR × concurrency). With high latency the windows needed to
   * keep the rate busy (rate × time per window) can exceed the configured number.
   */
  limiter?: { stats(): { waiting: number } };
  progress: ProgressSink;
  /** Newest complete day: nothing after it is ever covered. */
  lastComplete: string;
  /** Whether the registry's end_date is inclusive (REGWATCH_CHANGES_END_INCLUSIVE). */
  endInclusive: boolean;
  /** The run lock, checked inside each window's transaction (see WindowWrite.lock). */
  lock?: WindowWrite["lock"];
  signal?: AbortSignal;
  /** List names by key, so messages name a list by both. */
  listNames?: ReadonlyMap<string, string>;
}

/** Answers whose interval differed from the asked one, per list. */
export interface IntervalDisagreements {
  wider: number;
  narrower: number;
  elsewhere: number;
  example: string;
}

export interface WindowRunStats {
  windowsDone: number;
  windowsFailed: number;
  windowsSkipped: number;
  requests: number;
  changes: number;
  newFiles: number;
  invalidItems: number;
  /** First reads that met changes other lists had stored and were written again the careful way. */
  rewrites: number;
  errors: string[];
  disagreements: Record<string, IntervalDisagreements>;
  /** Set when an error makes every further request pointless (bad key, expired access, database gone). */
  fatal?: Error;
}

export async function runWindows(
  windows: readonly Window[],
  options: WindowRunOptions,
): Promise<WindowRunStats> {
  const stats: WindowRunStats = {
    windowsDone: 0,
    windowsFailed: 0,
    windowsSkipped: 0,
    requests: 0,
    changes: 0,
    newFiles: 0,
    invalidItems: 0,
    rewrites: 0,
    errors: [],
    disagreements: {},
  };
  // Lists whose first reads met changes other lists had stored (lists sharing businesses): the
  // rest of their windows are written the careful way, so no window is written twice again.
  const sharing = new Set<string>();
  // Lists whose changes ran past the page bound: their other windows would each cost as many
  // requests again, so the rest of the run does not ask for them (they stay uncovered).
  const endless = new Set<string>();
  const floor = Math.max(1, options.concurrency);
  const cap = floor * MAX_IN_FLIGHT_FACTOR;
  // Answers waiting to be written while their windows ask on: as many as the configured windows.
  const writes = new WriteBehind(floor);
  const runWindow = async (window: Window, asked: () => void) => {
    if (options.signal?.aborted || stats.fatal) {
      stats.windowsSkipped++;
      return;
    }
    try {
      if (endless.has(window.listKey))
        throw new Error("not asked: an earlier window of this list ran past the page bound in this run");
      await runOne(window, { options, stats, sharing, writes, asked });
      stats.windowsDone++;
      options.progress.windowDone(false);
    } catch (thrown) {
      const error = coerceError(classifyDatabaseError(thrown));
      if (
        options.signal?.aborted &&
        !(error instanceof DatabaseUnavailableError || error instanceof RunLockLostError)
      ) {
        stats.windowsSkipped++;
        return;
      }
      stats.windowsFailed++;
      if (error instanceof ApiError && error.code === "HTTP_AUTH") stats.fatal ??= error;
      if (error instanceof ApiError && error.code === "TOO_MANY_PAGES") endless.add(window.listKey);
      if (error instanceof DatabaseUnavailableError || error instanceof RunLockLostError)
        stats.fatal ??= error;
      const message = redactSecrets(
        `list ${listLabel(options, window.listKey)} ${window.start}..${window.end}: ${error.message}`,
      );
      if (stats.errors.length < 20) stats.errors.push(message);
      // Info, not a warning: the run's report names it, and a terminal shows that once.
      options.log.info(
        { listKey: window.listKey, start: window.start, end: window.end, err: error.message },
        "window failed",
      );
      options.progress.windowDone(true);
    }
  };
  await runPool(windows, runWindow, floor, (running) =>
    mayStart(running, floor, cap, options.limiter?.stats().waiting ?? Number.POSITIVE_INFINITY),
  );
  return stats;
}

interface WindowContext {
  options: WindowRunOptions;
  stats: WindowRunStats;
  sharing: Set<string>;
  writes: WriteBehind;
  /** The window's last request is answered: its place among the windows asking is free. */
  asked: () => void;
}

/**
 * Asks for one window (and for what its answers left out), handing each answer to the writes
 * behind; done when the last of them has committed. A failed write ends the asking.
 */
async function runOne(window: Window, context: WindowContext): Promise<void> {
  let written: Promise<void> = Promise.resolve();
  let writeFailed = false;
  let failure: { error: unknown } | undefined;
  try {
    await askAll(window, context, async (write) => {
      if (writeFailed) return false;
      ({ chain: written } = await context.writes.add(written, write));
      written.catch(() => {
        writeFailed = true;
      });
      return true;
    });
  } catch (error) {
    failure = { error };
  }
  context.asked();
  // A write's failure comes first: it happened to an answer asked before the request that failed.
  await written;
  if (failure) throw failure.error;
}

/**
 * The requests of one window: each answer is checked and handed to `write` (false: stop asking,
 * an earlier write failed), and what the server left out is asked again.
 */
async function askAll(
  window: Window,
  { options, stats, sharing }: WindowContext,
  write: (write: () => Promise<void>) => Promise<boolean>,
): Promise<void> {
  let pending: Interval[] = [{ start: window.start, end: window.end }];
  /** Single days whose answer is too large even alone: the other days go on, then the window fails. */
  const tooLarge: string[] = [];
  for (let round = 0; pending.length > 0; round++) {
    if (round > MAX_FOLLOW_UPS)
      throw new Error(`the server kept answering for less than asked; still missing ${describe(pending)}`);
    const next: Interval[] = [];
    for (const asked of pending) {
      stats.requests++;
      let page: ChangesPage;
      try {
        page = await stoppable(
          options.watch.changes(window.listKey, asked.start, requestEnd(asked.end, options.endInclusive)),
          options.signal,
        );
      } catch (error) {
        // An answer over REGWATCH_MAX_RESPONSE_BYTES is asked again in halves,
        // so memory stays bounded by the cap and the days still get read; one day alone fails.
        if (!(error instanceof ApiError && TOO_BIG.includes(error.code))) throw error;
        const split = halves(asked);
        if (!split) {
          tooLarge.push(`${asked.start}..${asked.end}: ${error.message}`);
          continue;
        }
        options.log.info(
          { listKey: window.listKey, asked, err: error instanceof Error ? error.message : String(error) },
          "changes answer too large; asking again in halves",
        );
        next.push(...split);
        continue;
      }
      const answered = answeredDays(page.startDate, page.endDate, options.endInclusive);
      noteDisagreement(window.listKey, asked, answered, options, stats);
      const checked = validateItems(page.items, asked);
      const clean = checked.invalid.length === 0;
      const covered = clean
        ? intersect(asked, answered, { start: asked.start, end: options.lastComplete })
        : null;
      const handed = await write(async () => {
        const written = await writeWithRetry(options, {
          listKey: window.listKey,
          runId: options.runId,
          requested: asked,
          covered,
          items: checked.valid,
          invalid: checked.invalid,
          lock: options.lock,
          mayBeNew: !sharing.has(window.listKey),
        });
        if (written.metStored) {
          stats.rewrites++;
          sharing.add(window.listKey);
        }
        stats.changes += written.changes;
        stats.newFiles += written.newFiles;
      });
      if (!handed) return;
      if (!clean) {
        stats.invalidItems += checked.invalid.length;
        const first = checked.invalid[0]!;
        throw new Error(
          `${checked.invalid.length} invalid item(s) set aside (first: tax_id ${JSON.stringify(first.taxId)} ${first.reason}); ` +
            `the valid ones are stored, the days stay uncovered until the registry answers cleanly or ` +
            `\`regwatch coverage accept ${window.listKey} ${asked.start} ${asked.end} --reason TEXT\``,
        );
      }
      if (!covered) {
        throw new Error(
          `asked ${asked.start}..${asked.end}, the server answered for ${answered.start}..${answered.end}`,
        );
      }
      next.push(...remainder(asked, covered));
    }
    pending = next;
  }
  if (tooLarge.length > 0) throw new Error(`too large even for a single day: ${tooLarge.join("; ")}`);
}

type WriteInput = Parameters<typeof writeWindow>[1];

/** A deadlock or serialisation failure rolled the whole transaction back: running it again is safe. */
async function writeWithRetry(options: WindowRunOptions, input: WriteInput) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await writeWindow(options.sql, input);
    } catch (error) {
      if (!isRetryableConflict(error) || attempt >= WRITE_ATTEMPTS) throw error;
      options.log.debug({ listKey: input.listKey, attempt }, "window write conflicted; writing it again");
      await new Promise((r) => setTimeout(r, 20 * attempt + Math.random() * 50));
    }
  }
}

function noteDisagreement(
  listKey: string,
  asked: Interval,
  answered: Interval,
  options: WindowRunOptions,
  stats: WindowRunStats,
): void {
  const kind = disagreement(asked, answered);
  if (!kind) return;
  const entry = stats.disagreements[listKey] ?? { wider: 0, narrower: 0, elsewhere: 0, example: "" };
  stats.disagreements[listKey] = entry;
  entry[kind]++;
  const example = `asked ${asked.start}..${asked.end}, answered ${answered.start}..${answered.end}`;
  if (!entry.example) entry.example = example;
  if (kind !== "narrower") {
    options.log.warn(
      { listKey, asked, answered },
      `the answer claims days that were not asked (${example}); only asked, complete days are covered`,
    );
  }
}

function describe(intervals: Interval[]): string {
  return intervals.map((i) => `${i.start}..${i.end}`).join(", ");
}

/** `suppliers (wl_123)` when the name is known, else the key. */
function listLabel(options: Pick<WindowRunOptions, "listNames">, listKey: string): string {
  const name = options.listNames?.get(listKey);
  return name ? `${name} (${listKey})` : listKey;
}
