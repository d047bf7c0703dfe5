/**
 * The parse step: reads fetched change files from the database in batches and turns them into
 * heading values. It sends no request, so it runs after every sync's file phase and, with a wider
 * selection, as `regwatch reparse`.
 */
import { type BodyToParse, filesToParse, type ParseSelection, saveParsedFiles } from "../db/change-values.ts";
import type { Sql } from "../db/connect.ts";
import { PARSERS, parseBody } from "./parse-body.ts";
import { parseLargeBody } from "./parse-large.ts";
import type { ChangeFileParser, ParseOutcome } from "./types.ts";

const BATCH = 200;
/**
 * Largest body the parser loads whole. Change files are a few kilobytes; a body far larger would
 * take many times its size as a JavaScript tree, so it is read from the database a page of
 * elements at a time (parse-large.ts) when a parser offers that, else marked failed with its size.
 */
export const PARSE_MAX_BYTES = 8 * 1024 * 1024;
/** Bodies loaded at once by one batch (a single larger one still passes alone). */
const BATCH_BYTES = 8 * 1024 * 1024;

export interface ParseReport {
  files: number;
  parsed: number;
  unrecognised: number;
  failed: number;
  values: number;
}

export async function parseStoredFiles(
  sql: Sql,
  options: { selection?: ParseSelection; parsers?: readonly ChangeFileParser[]; signal?: AbortSignal } = {},
): Promise<ParseReport> {
  const report: ParseReport = { files: 0, parsed: 0, unrecognised: 0, failed: 0, values: 0 };
  let after = "";
  for (;;) {
    if (options.signal?.aborted) break;
    const bodies = await filesToParse(sql, options.selection ?? "new", after, BATCH, {
      maxBytes: PARSE_MAX_BYTES,
      batchBytes: BATCH_BYTES,
    });
    if (bodies.length === 0) break;
    const parsers = options.parsers ?? PARSERS;
    const parsed = bodies
      .filter((body) => !body.tooLarge)
      .map((body) => ({ path: body.path, outcome: parseBody(body, parsers) }));
    report.values += await saveParsedFiles(sql, parsed);
    // Too large ones one at a time, each written on its own.
    for (const body of bodies.filter((b) => b.tooLarge)) {
      if (options.signal?.aborted) break;
      const one = [{ path: body.path, outcome: await parseTooLarge(sql, body, parsers) }];
      report.values += await saveParsedFiles(sql, one);
      parsed.push(...one);
    }
    for (const p of parsed) report[p.outcome.status] += 1;
    report.files += parsed.length;
    after = bodies.at(-1)!.path;
  }
  return report;
}

async function parseTooLarge(
  sql: Sql,
  body: BodyToParse,
  parsers: readonly ChangeFileParser[],
): Promise<ParseOutcome> {
  const outcome = body.storedAs === "json" ? await parseLargeBody(sql, body.path, parsers) : null;
  return (
    outcome ?? {
      status: "failed",
      parser: null,
      reason: `the body of ${body.size} bytes is larger than the parser reads whole (${PARSE_MAX_BYTES} bytes) and no parser reads it in pages; not parsed`,
    }
  );
}
