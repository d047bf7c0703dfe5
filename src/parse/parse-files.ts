/**
 * The parse step: reads fetched change files from the database in batches, turns each into
 * entries, gives each entry to the change it belongs to, and writes the values. It sends no
 * request, so it runs after every sync's file phase and, with a wider selection, as
 * `regwatch reparse`. Nothing one file holds can fail another: a file whose values Postgres
 * refuses fails alone, and the rest of its batch is written without it.
 */

import { DEFAULTS } from "../config.ts";
import { lastCompleteDay } from "../dates.ts";
import type { Sql } from "../db/connect.ts";
import { classifyDatabaseError, DatabaseUnavailableError } from "../db/db-errors.ts";
import { coerceError } from "../errors.ts";
import { attribute, type FileChange } from "./attribute.ts";
import { chainOrder } from "./day-chain.ts";
import { PARSERS, parseBody } from "./parse-body.ts";
import { parseLargeBody } from "./parse-large.ts";
import { type BodyToParse, filesToParse, type ParseSelection } from "./sql/change-values.ts";
import { type ParsedFile, type SaveOptions, type SaveOutcome, saveParsedFiles } from "./sql/value-writes.ts";
import { unstorable } from "./storable.ts";
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
  unattributed: number;
  failed: number;
  values: number;
}

export interface ParseOptions {
  selection?: ParseSelection;
  parsers?: readonly ChangeFileParser[];
  signal?: AbortSignal;
  /** The last complete day: profiles take no value dated after it. Default: today's, by the registry's clock. */
  lastComplete?: string;
  /** The registry's zone (REGWATCH_REGISTRY_TZ); default the configuration's default. */
  registryTz?: string;
}

export async function parseStoredFiles(sql: Sql, options: ParseOptions = {}): Promise<ParseReport> {
  const report: ParseReport = { files: 0, parsed: 0, unrecognised: 0, unattributed: 0, failed: 0, values: 0 };
  const registryTz = options.registryTz ?? DEFAULTS.registryTz;
  const save: SaveOptions = {
    lastComplete: options.lastComplete ?? lastCompleteDay(new Date(), registryTz),
    registryTz,
    orderDay: chainOrder,
  };
  const parsers = options.parsers ?? PARSERS;
  let after = "";
  for (;;) {
    if (options.signal?.aborted) break;
    const bodies = await filesToParse(sql, options.selection ?? "new", after, BATCH, {
      maxBytes: PARSE_MAX_BYTES,
      batchBytes: BATCH_BYTES,
    });
    if (bodies.length === 0) break;
    const whole = bodies
      .filter((body) => !body.tooLarge)
      .map((body) => parsedFile(body, parseBody(body, parsers)));
    const saved = await saveBatch(sql, whole, save, report);
    // Too large ones one at a time, each written on its own.
    for (const body of bodies.filter((b) => b.tooLarge)) {
      if (options.signal?.aborted) break;
      const large = await parseTooLarge(sql, body, parsers);
      saved.push(
        ...(await saveBatch(sql, [parsedFile(body, large.outcome, large.namelessSkipped)], save, report)),
      );
    }
    for (const file of saved) report[file.outcome.status] += 1;
    report.files += saved.length;
    after = bodies.at(-1)!.path;
  }
  return report;
}

/** A body's parse outcome with its entries given to the changes pointing at the file. */
function parsedFile(body: BodyToParse, outcome: ParseOutcome, namelessSkipped = 0): ParsedFile {
  return {
    path: body.path,
    changeIds: body.changeIds,
    outcome: settle(outcome, body.changes, namelessSkipped),
  };
}

function settle(outcome: ParseOutcome, changes: readonly FileChange[], namelessSkipped: number): SaveOutcome {
  if (outcome.status !== "parsed") return outcome;
  const { values, missing } = attribute(outcome.values, changes, namelessSkipped);
  for (const v of values) {
    const problem =
      unstorable(v.heading, "a heading name") ??
      unstorable(v.oldValue, `the old value of ${v.heading}`) ??
      unstorable(v.newValue, `the new value of ${v.heading}`);
    if (problem)
      return {
        status: "failed",
        parser: outcome.parser,
        reason: `${problem}; no value of the file was kept`,
      };
  }
  if (missing.length === 0) return { status: "parsed", parser: outcome.parser, values, reason: null };
  const what =
    values.length === 0
      ? "no change pointing at the file could be given values"
      : "only some changes pointing at the file could be given values (theirs are kept)";
  return { status: "unattributed", parser: outcome.parser, values, reason: `${what}: ${missing.join("; ")}` };
}

/**
 * Writes a batch in one transaction; when the database refuses it (a value no check here
 * foresaw), each file is written alone, and a file refused alone is marked failed with the
 * database's message. Returns the files as written.
 */
async function saveBatch(
  sql: Sql,
  files: readonly ParsedFile[],
  save: SaveOptions,
  report: ParseReport,
): Promise<ParsedFile[]> {
  try {
    report.values += await saveParsedFiles(sql, files, save);
    return [...files];
  } catch (error) {
    if (classifyDatabaseError(error) instanceof DatabaseUnavailableError) throw classifyDatabaseError(error);
    if (files.length === 1 && !hasValues(files[0]!.outcome)) throw error;
  }
  const written: ParsedFile[] = [];
  for (const file of files) {
    try {
      report.values += await saveParsedFiles(sql, [file], save);
      written.push(file);
    } catch (error) {
      const gone = classifyDatabaseError(error);
      if (gone instanceof DatabaseUnavailableError) throw gone;
      const parser = file.outcome.status === "unrecognised" ? null : file.outcome.parser;
      const reason = `its values could not be written: ${coerceError(error).message}`;
      const failed: ParsedFile = { ...file, outcome: { status: "failed", parser, reason } };
      await saveParsedFiles(sql, [failed], save);
      written.push(failed);
    }
  }
  return written;
}

function hasValues(outcome: SaveOutcome): boolean {
  return (outcome.status === "parsed" || outcome.status === "unattributed") && outcome.values.length > 0;
}

async function parseTooLarge(
  sql: Sql,
  body: BodyToParse,
  parsers: readonly ChangeFileParser[],
): Promise<{ outcome: ParseOutcome; namelessSkipped: number }> {
  const large = body.storedAs === "json" ? await parseLargeBody(sql, body.path, body.changes, parsers) : null;
  return (
    large ?? {
      outcome: {
        status: "failed",
        parser: null,
        reason: `the body of ${body.size} bytes is larger than the parser reads whole (${PARSE_MAX_BYTES} bytes) and no parser reads it in pages; not parsed`,
      },
      namelessSkipped: 0,
    }
  );
}
