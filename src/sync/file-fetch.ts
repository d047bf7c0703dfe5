/**
 * Fetches change files. A path whose origin is not allowed is refused and never requested (and is
 * checked again on every sync, so fixing REGWATCH_FILE_ORIGINS brings it back); the API key
 * travels only to the watch interface's own origin (HttpClient decides per origin).
 *
 * Each file's outcome is written on its own as soon as it is known, so one bad file fails alone
 * and is marked failed with its reason. Bodies go to Postgres as text and are parsed there, never
 * into a JavaScript tree, and the bytes held at once are bounded by a budget.
 */
import { createHash } from "node:crypto";
import pLimit from "p-limit";
import { ApiError } from "../api/errors.ts";
import { type DownloadedFile, RefusedFileError } from "../api/file-download.ts";
import type { Sql } from "../db/connect.ts";
import { classifyDatabaseError, DatabaseUnavailableError } from "../db/db-errors.ts";
import { countOpenFiles, type FileOutcome, openFilesPage, saveFileOutcome } from "../db/files.ts";
import { coerceError } from "../errors.ts";
import { redactSecrets } from "../secrets.ts";
import { ByteBudget } from "./byte-budget.ts";
import type { ProgressSink } from "./progress.ts";
import { stoppable } from "./stoppable.ts";

/** Sync-level attempts for one file (each made of several HTTP attempts) before it is left failed. */
export const FILE_MAX_SYNC_ATTEMPTS = 10;
const PAGE_SIZE = 1000;
/**
 * Bytes of bodies decoded and being written at once. Writing a body holds it about three times
 * (bytes, text, the query's copy), so 64 MiB keeps that phase near 200 MB at worst.
 */
export const FILE_BYTE_BUDGET = 64 * 1024 * 1024;

export interface FileFetchOptions {
  sql: Sql;
  /** Fetches one file under the registry's rules (origins, redirects, key, byte cap). */
  download: (path: string, signal?: AbortSignal) => Promise<DownloadedFile>;
  concurrency: number;
  progress: ProgressSink;
  signal?: AbortSignal;
  byteBudget?: number;
}

export interface FileFetchStats {
  fetched: number;
  failed: number;
  refused: number;
  skipped: number;
  errors: string[];
  fatal?: Error;
}

export async function fetchOpenFiles(options: FileFetchOptions): Promise<FileFetchStats> {
  options.progress.filesAdded(await countOpenFiles(options.sql, FILE_MAX_SYNC_ATTEMPTS));
  const stats: FileFetchStats = { fetched: 0, failed: 0, refused: 0, skipped: 0, errors: [] };
  const limit = pLimit(options.concurrency);
  const budget = new ByteBudget(options.byteBudget ?? FILE_BYTE_BUDGET);

  // Pages by path keep memory flat however many files are open.
  for (
    let after = "", page = await nextPage(options.sql, after);
    page.length > 0;
    page = await nextPage(options.sql, after)
  ) {
    after = page.at(-1)!.path;
    await Promise.all(
      page.map((file) =>
        limit(async () => {
          if (options.signal?.aborted || stats.fatal) {
            stats.skipped++;
            return;
          }
          try {
            const outcome = await stoppable(fetchAndSave(file.path, options, budget), options.signal);
            stats[outcome.status === "fetched" ? "fetched" : outcome.status]++;
            if (outcome.status !== "fetched" && stats.errors.length < 20)
              stats.errors.push(redactSecrets(`${file.path}: ${outcome.error}`));
            options.progress.fileDone(outcome.status !== "fetched");
          } catch (thrown) {
            const error = coerceError(classifyDatabaseError(thrown));
            if (error instanceof DatabaseUnavailableError) stats.fatal ??= error;
            else if (!options.signal?.aborted) throw error;
            stats.skipped++;
          }
        }),
      ),
    );
    if (options.signal?.aborted || stats.fatal) break;
  }
  return stats;
}

function nextPage(sql: Sql, after: string) {
  return openFilesPage(sql, FILE_MAX_SYNC_ATTEMPTS, after, PAGE_SIZE);
}

/** Fetches one file and writes its outcome; a body Postgres refuses fails this file only. */
async function fetchAndSave(
  path: string,
  options: FileFetchOptions,
  budget: ByteBudget,
): Promise<FileOutcome> {
  const fetched = await fetchOne(path, options);
  if (fetched.status !== "fetched") {
    await saveFileOutcome(options.sql, fetched);
    return fetched;
  }
  const release = await budget.acquire(fetched.size);
  try {
    await saveFileOutcome(options.sql, fetched);
    return fetched;
  } catch (thrown) {
    const gone = classifyDatabaseError(thrown);
    if (gone instanceof DatabaseUnavailableError) throw gone;
    const failed: FileOutcome = {
      path,
      status: "failed",
      httpStatus: fetched.httpStatus,
      error: `the database refused the body: ${coerceError(thrown).message}`,
    };
    await saveFileOutcome(options.sql, failed);
    return failed;
  } finally {
    release();
  }
}

async function fetchOne(path: string, options: FileFetchOptions): Promise<FileOutcome> {
  try {
    return decodeFile(path, await options.download(path, options.signal));
  } catch (thrown) {
    const error = coerceError(thrown);
    if (error instanceof RefusedFileError) {
      return { path, status: "refused", httpStatus: null, error: error.message };
    }
    return {
      path,
      status: "failed",
      httpStatus: error instanceof ApiError ? (error.status ?? null) : null,
      error: error.message,
    };
  }
}

/**
 * Keeps JSON as jsonb (Postgres parses the text) and anything else as bytes. A body that is not
 * valid UTF-8, or holds a NUL jsonb cannot store, is kept as bytes untouched rather than altered.
 */
function decodeFile(path: string, file: DownloadedFile): FileOutcome {
  const base = {
    path,
    status: "fetched" as const,
    httpStatus: file.status,
    contentType: file.contentType,
    sha256: createHash("sha256").update(file.body).digest("hex"),
    size: file.body.length,
  };
  if (file.contentType && /[/+]json\b/i.test(file.contentType)) {
    const text = strictUtf8(file.body);
    if (text !== undefined && !text.includes("\\u0000") && !text.includes("\u0000"))
      return { ...base, jsonText: text, bytes: null };
  }
  return { ...base, jsonText: null, bytes: file.body };
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

function strictUtf8(body: Buffer): string | undefined {
  try {
    return utf8.decode(body);
  } catch {
    return undefined;
  }
}
