/**
 * `reparse` for the files failed for good: each kept body is judged again by today's rules (the
 * nesting bound, what jsonb takes) and stored as fetched when they let it through, so the parse
 * that follows reads it. Sends no request; a body still refused stays failed for good, with the
 * reason found now.
 */
import type { Sql } from "../db/connect.ts";
import { BodyInspector } from "./file-body.ts";
import { keepSettled, settledBody, settledFilesWithBody, storeSettledBody } from "./sql/settled-files.ts";

export interface SettledRetry {
  /** Stored as fetched, to be parsed. */
  stored: number;
  /** Refused again: still failed for good. */
  still: number;
}

export async function retrySettledFiles(sql: Sql, signal?: AbortSignal): Promise<SettledRetry> {
  const result: SettledRetry = { stored: 0, still: 0 };
  // One body at a time: a kept body may be as large as REGWATCH_MAX_FILE_BYTES.
  for (const path of await settledFilesWithBody(sql)) {
    if (signal?.aborted) break;
    const body = await settledBody(sql, path);
    if (!body) continue;
    const inspector = new BodyInspector(body.contentType);
    inspector.update(body.bytes);
    const facts = inspector.finish();
    if (facts.refusal !== null) {
      await keepSettled(sql, path, facts.refusal);
      result.still++;
    } else if (await storeSettledBody(sql, path, facts.asJson)) result.stored++;
    else result.still++;
  }
  return result;
}
