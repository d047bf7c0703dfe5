/**
 * Fetches change files. A path whose origin is not allowed is refused and never requested (and is
 * checked again on every sync, so fixing REGWATCH_FILE_ORIGINS brings it back); the API key
 * travels only to the watch interface's own origin (HttpClient decides per origin).
 *
 * Each body streams from the registry into Postgres as it arrives (see saveStreamedFile), so the
 * memory a file takes is a few chunks whatever its size; the cap (REGWATCH_MAX_FILE_BYTES) is
 * checked against the declared length before reading and while reading. Each file's outcome is
 * written on its own, so one bad file fails alone and is marked failed with its reason.
 */
import pLimit from "p-limit";
import { ApiError } from "../api/errors.ts";
import { RefusedFileError, type StreamedFile } from "../api/file-download.ts";
import type { FetchFilesPolicy } from "../config.ts";
import type { Sql } from "../db/connect.ts";
import { classifyDatabaseError, DatabaseUnavailableError, permanentRefusal } from "../db/db-errors.ts";
import { coerceError } from "../errors.ts";
import { redactSecrets } from "../secrets.ts";
import { BodyInspector } from "./file-body.ts";
import type { ProgressSink } from "./progress.ts";
import {
  type FileOutcome,
  type OpenFilesCursor,
  openFilesPage,
  saveFileOutcome,
  saveStreamedFile,
  skipUnwantedFiles,
} from "./sql/files.ts";
import { stoppable } from "./stoppable.ts";

/** Sync-level attempts for one file (each made of several HTTP attempts) before it is left failed. */
export const FILE_MAX_SYNC_ATTEMPTS = 10;
const PAGE_SIZE = 1000;

/** Fetches one file under the registry's rules (origins, redirects, key, byte cap), handing its body to `consume`. */
export type FileStreamer = <T>(
  path: string,
  consume: (file: StreamedFile) => Promise<T>,
  signal?: AbortSignal,
) => Promise<T>;

export interface FileFetchOptions {
  sql: Sql;
  fetchFile: FileStreamer;
  concurrency: number;
  /** REGWATCH_FETCH_FILES: files it does not want are left skipped. Default all. */
  policy?: FetchFilesPolicy;
  progress: ProgressSink;
  /** The stop request, and the run lock's loss (see SyncDeps.lock). */
  signal?: AbortSignal;
  /** The run lock, checked before each page of files: a phase can last hours. */
  lock?: { verify(): Promise<void> };
}

export interface FileFetchStats {
  fetched: number;
  failed: number;
  /** Failed in a way no repeat can change: kept with the reason, never tried again by a sync. */
  failedForGood: number;
  refused: number;
  skipped: number;
  errors: string[];
  fatal?: Error;
}

/**
 * Windows still being written, for a file phase that runs beside them: `next` resolves when
 * another window has committed (true) or every window is done (false).
 */
export interface WindowFeed {
  next(): Promise<boolean>;
  readonly done: boolean;
}

/**
 * Fetches every open file the policy wants, newest changes first. Beside a running window phase
 * (`feed`), it goes on as windows commit, and makes one last pass once they are all done; a file
 * is tried at most once per call.
 */
export async function fetchOpenFiles(options: FileFetchOptions, feed?: WindowFeed): Promise<FileFetchStats> {
  const policy = options.policy ?? { kind: "all" };
  const stats: FileFetchStats = {
    fetched: 0,
    failed: 0,
    failedForGood: 0,
    refused: 0,
    skipped: 0,
    errors: [],
  };
  const limit = pLimit(options.concurrency);
  const tried = new Set<string>();
  const stopped = () => options.signal?.aborted || stats.fatal !== undefined;

  for (;;) {
    const last = feed === undefined || feed.done;
    await skipUnwantedFiles(options.sql, policy);
    // Pages keep memory flat however many files are open.
    let found = 0;
    // The next page is read while this one's files are still fetched (at most two pages queued):
    // waiting for a page to drain before reading the next would leave the rate's turns unused.
    let before: Promise<unknown> = Promise.resolve();
    for (
      let page = await nextPage(options.sql, null, policy);
      page.length > 0 && !stopped();
      page = await nextPage(options.sql, page.at(-1)!, policy)
    ) {
      if (!(await lockHeld(options, stats))) break;
      const fresh = page.filter((file) => !tried.has(file.path));
      for (const file of fresh) tried.add(file.path);
      found += fresh.length;
      options.progress.filesAdded(fresh.length);
      const queued = Promise.all(fresh.map((file) => limit(() => fetchCounted(file.path, options, stats))));
      queued.catch(() => {});
      await before;
      before = queued;
    }
    await before;
    if (last || stopped()) break;
    if (found === 0) await feed.next();
  }
  return stats;
}

/** False (with the reason as the phase's fatal error) once the run lock is lost. */
async function lockHeld(options: FileFetchOptions, stats: FileFetchStats): Promise<boolean> {
  try {
    await options.lock?.verify();
    return true;
  } catch (thrown) {
    stats.fatal ??= coerceError(classifyDatabaseError(thrown));
    return false;
  }
}

async function fetchCounted(path: string, options: FileFetchOptions, stats: FileFetchStats): Promise<void> {
  if (options.signal?.aborted || stats.fatal) {
    stats.skipped++;
    return;
  }
  try {
    const outcome = await stoppable(fetchAndSave(path, options), options.signal);
    stats[outcome.status === "failed" && outcome.forGood ? "failedForGood" : outcome.status]++;
    if (outcome.status !== "fetched" && stats.errors.length < 20)
      stats.errors.push(redactSecrets(`${path}: ${outcome.error}`));
    options.progress.fileDone(outcome.status !== "fetched");
  } catch (thrown) {
    const error = coerceError(classifyDatabaseError(thrown));
    if (error instanceof DatabaseUnavailableError || isRefusedKey(error)) stats.fatal ??= error;
    else if (!options.signal?.aborted) throw error;
    stats.skipped++;
  }
}

function nextPage(sql: Sql, after: OpenFilesCursor | null, policy: FetchFilesPolicy) {
  return openFilesPage(sql, FILE_MAX_SYNC_ATTEMPTS, after, PAGE_SIZE, policy);
}

/**
 * Fetches one file and writes its outcome; a body Postgres refuses fails this file only (for
 * good, its bytes kept, when the refusal would be the same on every try).
 */
async function fetchAndSave(path: string, options: FileFetchOptions): Promise<FileOutcome> {
  let outcome: FileOutcome;
  let written = false;
  try {
    outcome = await options.fetchFile(
      path,
      async (file) => {
        const inspector = new BodyInspector(file.contentType);
        const saved = await saveStreamedFile(options.sql, {
          path,
          httpStatus: file.status,
          contentType: file.contentType,
          chunks: file.body,
          onChunk: (chunk) => inspector.update(chunk),
          facts: () => inspector.finish(),
        });
        written = true;
        if (saved.refusal !== null)
          return {
            path,
            status: "failed",
            httpStatus: file.status,
            error: saved.refusal,
            forGood: true,
          } satisfies FileOutcome;
        return {
          path,
          status: "fetched",
          httpStatus: file.status,
          contentType: file.contentType,
          sha256: saved.sha256,
          size: saved.size,
          jsonText: null,
          bytes: null,
        } satisfies FileOutcome;
      },
      options.signal,
    );
  } catch (thrown) {
    outcome = failedOutcome(path, thrown);
  }
  if (!written) await saveFileOutcome(options.sql, outcome);
  return outcome;
}

function failedOutcome(path: string, thrown: unknown): FileOutcome {
  const gone = classifyDatabaseError(thrown);
  if (gone instanceof DatabaseUnavailableError) throw gone;
  const error = coerceError(thrown);
  // The key refused: not this file's fault, so it stays as it was (the run ends failed).
  if (isRefusedKey(error)) throw error;
  if (error instanceof RefusedFileError) {
    return { path, status: "refused", httpStatus: null, error: error.message };
  }
  if (error instanceof ApiError) {
    return { path, status: "failed", httpStatus: error.status ?? null, error: error.message };
  }
  // Not the transfer: Postgres refused the body (malformed JSON, say), perhaps for good.
  const forGood = permanentRefusal(thrown);
  if (forGood !== undefined)
    return {
      path,
      status: "failed",
      httpStatus: null,
      error: `the database refused the body for good: ${forGood}`,
      forGood: true,
    };
  return {
    path,
    status: "failed",
    httpStatus: null,
    error: `the database refused the body: ${error.message}`,
  };
}

function isRefusedKey(error: Error): boolean {
  return error instanceof ApiError && error.code === "HTTP_AUTH";
}
