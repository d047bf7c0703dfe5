/**
 * The parse step: reads fetched change files from the database in batches and turns them into
 * heading values. It sends no request, so it runs after every sync's file phase and, with a wider
 * selection, as `regwatch reparse`.
 */
import { filesToParse, type ParseSelection, saveParsedFiles } from "../db/change-values.ts";
import type { Sql } from "../db/connect.ts";
import { PARSERS, parseBody } from "./parse-body.ts";
import type { ChangeFileParser } from "./types.ts";

const BATCH = 200;

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
    const bodies = await filesToParse(sql, options.selection ?? "new", after, BATCH);
    if (bodies.length === 0) break;
    const parsed = bodies.map((body) => ({
      path: body.path,
      outcome: parseBody(body, options.parsers ?? PARSERS),
    }));
    report.values += await saveParsedFiles(sql, parsed);
    for (const p of parsed) report[p.outcome.status] += 1;
    report.files += parsed.length;
    after = bodies.at(-1)!.path;
  }
  return report;
}
