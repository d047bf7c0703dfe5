/**
 * Runs planned windows concurrently under the shared rate limiter. Each answered window is
 * written in one transaction; when the server answers for less than was asked, the rest is
 * asked again at once, and a window that makes no progress is reported, not retried forever.
 */
import pLimit from "p-limit";
import { ApiError } from "../api/errors.ts";
import type { WatchClient } from "../api/watch-client.ts";
import type { Sql } from "../db/connect.ts";
import { writeWindow } from "../db/window.ts";
import { coerceError } from "../errors.ts";
import type { Logger } from "../logger.ts";
import { type Interval, remainder, type Window } from "./plan.ts";
import type { ProgressSink } from "./progress.ts";

const MAX_FOLLOW_UPS = 7;

export interface WindowRunOptions {
  sql: Sql;
  watch: WatchClient;
  log: Logger;
  runId: number | null;
  concurrency: number;
  progress: ProgressSink;
  signal?: AbortSignal;
}

export interface WindowRunStats {
  windowsDone: number;
  windowsFailed: number;
  windowsSkipped: number;
  requests: number;
  changes: number;
  newFiles: number;
  errors: string[];
  /** Set when an error makes every further request pointless (bad key, expired access). */
  fatal?: ApiError;
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
    errors: [],
  };
  const limit = pLimit(options.concurrency);
  await Promise.all(
    windows.map((window) =>
      limit(async () => {
        if (options.signal?.aborted || stats.fatal) {
          stats.windowsSkipped++;
          return;
        }
        try {
          await runOne(window, options, stats);
          stats.windowsDone++;
          options.progress.windowDone(false);
        } catch (thrown) {
          const error = coerceError(thrown);
          stats.windowsFailed++;
          if (error instanceof ApiError && error.code === "HTTP_AUTH") stats.fatal = error;
          const message = `list ${window.listKey} ${window.start}..${window.end}: ${error.message}`;
          if (stats.errors.length < 20) stats.errors.push(message);
          options.log.warn(
            { listKey: window.listKey, start: window.start, end: window.end, err: error.message },
            "window failed",
          );
          options.progress.windowDone(true);
        }
      }),
    ),
  );
  return stats;
}

async function runOne(window: Window, options: WindowRunOptions, stats: WindowRunStats): Promise<void> {
  let pending: Interval[] = [{ start: window.start, end: window.end }];
  for (let round = 0; pending.length > 0; round++) {
    if (round > MAX_FOLLOW_UPS)
      throw new Error(`the server kept answering for less than asked; still missing ${describe(pending)}`);
    const next: Interval[] = [];
    for (const asked of pending) {
      stats.requests++;
      const page = await options.watch.changes(window.listKey, asked.start, asked.end);
      const returned = { start: page.startDate, end: page.endDate };
      const written = await writeWindow(options.sql, {
        listKey: window.listKey,
        runId: options.runId,
        requested: asked,
        returned,
        items: page.items,
        raw: page.raw,
      });
      stats.changes += written.changes;
      stats.newFiles += written.newFiles;
      const missing = remainder(asked, returned);
      const progressed = returned.end >= asked.start && returned.start <= asked.end;
      if (missing.length > 0 && !progressed) {
        throw new Error(
          `asked ${asked.start}..${asked.end}, the server answered for ${returned.start}..${returned.end}`,
        );
      }
      next.push(...missing);
    }
    pending = next;
  }
}

function describe(intervals: Interval[]): string {
  return intervals.map((i) => `${i.start}..${i.end}`).join(", ");
}
