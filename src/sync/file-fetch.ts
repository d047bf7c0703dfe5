/**
 * Fetches change files. A path whose origin is not allowed is refused and never requested; the
 * API key travels only to the watch interface's own origin (HttpClient decides per origin).
 */
import { createHash } from "node:crypto";
import pLimit from "p-limit";
import { ApiError } from "../api/errors.ts";
import type { HttpClient, HttpResponse } from "../api/http.ts";
import type { Sql } from "../db/connect.ts";
import { countOpenFiles, type FileOutcome, openFilesPage, saveFileOutcomes } from "../db/files.ts";
import { coerceError } from "../errors.ts";
import type { ProgressSink } from "./progress.ts";

/** Sync-level attempts for one file (each made of several HTTP attempts) before it is left failed. */
export const FILE_MAX_SYNC_ATTEMPTS = 10;
const FLUSH_EVERY = 50;
const PAGE_SIZE = 1000;

export interface FileFetchOptions {
  sql: Sql;
  http: HttpClient;
  allowedOrigins: readonly string[];
  concurrency: number;
  progress: ProgressSink;
  signal?: AbortSignal;
}

export interface FileFetchStats {
  fetched: number;
  failed: number;
  refused: number;
  skipped: number;
  errors: string[];
}

export async function fetchOpenFiles(options: FileFetchOptions): Promise<FileFetchStats> {
  options.progress.filesAdded(await countOpenFiles(options.sql, FILE_MAX_SYNC_ATTEMPTS));
  const stats: FileFetchStats = { fetched: 0, failed: 0, refused: 0, skipped: 0, errors: [] };
  const allowed = new Set(options.allowedOrigins);
  const limit = pLimit(options.concurrency);
  let buffer: FileOutcome[] = [];
  let flushing: Promise<void> = Promise.resolve();
  const flush = () => {
    const batch = buffer;
    buffer = [];
    flushing = flushing.then(() => saveFileOutcomes(options.sql, batch));
    return flushing;
  };

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
          if (options.signal?.aborted) {
            stats.skipped++;
            return;
          }
          const outcome = await fetchOne(file.path, allowed, options.http);
          stats[outcome.status === "fetched" ? "fetched" : outcome.status]++;
          if (outcome.status !== "fetched" && stats.errors.length < 20)
            stats.errors.push(`${file.path}: ${outcome.error}`);
          options.progress.fileDone(outcome.status !== "fetched");
          buffer.push(outcome);
          if (buffer.length >= FLUSH_EVERY) await flush();
        }),
      ),
    );
    if (options.signal?.aborted) break;
  }
  await flush();
  return stats;
}

function nextPage(sql: Sql, after: string) {
  return openFilesPage(sql, FILE_MAX_SYNC_ATTEMPTS, after, PAGE_SIZE);
}

async function fetchOne(path: string, allowed: ReadonlySet<string>, http: HttpClient): Promise<FileOutcome> {
  let url: URL;
  try {
    url = new URL(path);
  } catch {
    return { path, status: "refused", httpStatus: null, error: "path is not an absolute URL" };
  }
  if (!allowed.has(url.origin) || (url.protocol !== "https:" && url.protocol !== "http:")) {
    return {
      path,
      status: "refused",
      httpStatus: null,
      error: `origin ${url.origin} is not in REGWATCH_FILE_ORIGINS`,
    };
  }
  try {
    return await http.request({ method: "GET", url, endpoint: "GET /files" }, (response) =>
      decodeFile(path, response),
    );
  } catch (thrown) {
    const error = coerceError(thrown);
    return {
      path,
      status: "failed",
      httpStatus: error instanceof ApiError ? (error.status ?? null) : null,
      error: error.message,
    };
  }
}

/** Keeps JSON as jsonb and anything else as bytes; a JSON file that does not parse is retried. */
function decodeFile(path: string, response: HttpResponse): FileOutcome {
  const header = response.headers["content-type"];
  const contentType = (Array.isArray(header) ? header[0] : header) ?? null;
  const sha256 = createHash("sha256").update(response.body).digest("hex");
  const base = {
    path,
    status: "fetched" as const,
    httpStatus: response.status,
    contentType,
    sha256,
    size: response.body.length,
  };
  const text = response.body.toString("utf8");
  if (contentType && /[/+]json\b/i.test(contentType)) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (cause) {
      throw new ApiError("BAD_RESPONSE", `change file is declared JSON but does not parse`, {
        endpoint: "GET /files",
        status: response.status,
        cause,
      });
    }
    // jsonb cannot hold U+0000: keep such a body as bytes instead.
    if (!text.includes("\\u0000")) return { ...base, json, bytes: null };
  }
  return { ...base, json: undefined, bytes: response.body };
}
