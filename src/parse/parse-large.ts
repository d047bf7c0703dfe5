/**
 * Parsing a body too large to load whole (above PARSE_MAX_BYTES): a parser offering server-side
 * extraction gets the elements of its array from the database a page at a time and reads each
 * with the same function as the whole-body path. Only entries that can concern one of the file's
 * changes are kept (a file shared by a whole business form and day is mostly about businesses
 * nobody here watches), each distinct one once, so a 55 MB change file costs this process one
 * page of elements plus the entries of its own businesses.
 */

import type { Sql } from "../db/connect.ts";
import { type FileChange, mayConcern } from "./attribute.ts";
import { valueKey } from "./day-chain.ts";
import { bodyArrayPages, bodyArrayShape } from "./sql/change-values.ts";
import {
  type ChangeFileParser,
  type HeadingValue,
  isUnrecognised,
  ParseFailure,
  type ParseOutcome,
} from "./types.ts";

/** Elements pulled from the database at once. */
export const EXTRACTION_PAGE = 1000;
/** Distinct entries kept from one file on this path; the changes of one file have a few dozen. */
export const MAX_ENTRIES = 10_000;

export interface LargeParse {
  outcome: ParseOutcome;
  /** Entries naming no business that were left out because the file's changes are of several. */
  namelessSkipped: number;
}

/**
 * The outcome for one too-large body stored as JSON, or null when no parser offering extraction
 * recognises it (the caller then records it as not parsed for its size).
 */
export async function parseLargeBody(
  sql: Sql,
  path: string,
  changes: readonly FileChange[],
  parsers: readonly ChangeFileParser[],
): Promise<LargeParse | null> {
  const oneBusiness = new Set(changes.map((c) => c.taxId)).size === 1;
  for (const parser of parsers) {
    const extraction = parser.extraction;
    if (!extraction) continue;
    const shape = await bodyArrayShape(sql, path, extraction.key, extraction.required);
    if (!shape) continue;
    const kept = new Map<string, { index: number; entry: HeadingValue }>();
    let namelessSkipped = 0;
    try {
      const defaults = extraction.defaults(shape.top);
      for await (const page of bodyArrayPages(sql, path, extraction.key, EXTRACTION_PAGE)) {
        for (const { entry, index } of page) {
          const read = extraction.element(entry, index, defaults);
          if (isUnrecognised(read)) {
            const reason = `no parser recognises JSON of an unknown shape (${parser.name}: ${read.unrecognised})`;
            return { outcome: { status: "unrecognised", reason }, namelessSkipped: 0 };
          }
          if (read.taxId == null && !oneBusiness) namelessSkipped++;
          if (!mayConcern(read, changes) || (read.taxId == null && !oneBusiness)) continue;
          const key = JSON.stringify([
            read.taxId ?? null,
            read.chapter ?? null,
            read.heading,
            read.oldUnknown ? "?unknown" : valueKey(read.oldValue),
            valueKey(read.newValue),
          ]);
          const seen = kept.get(key);
          if (seen && seen.index < index) continue;
          if (!seen && kept.size >= MAX_ENTRIES)
            throw new ParseFailure(`more than ${MAX_ENTRIES} distinct entries concern this file's changes`);
          kept.set(key, { index, entry: read });
        }
      }
    } catch (error) {
      if (error instanceof ParseFailure)
        return {
          outcome: { status: "failed", parser: parser.name, reason: error.message },
          namelessSkipped: 0,
        };
      throw error;
    }
    // File order (whatever order the pages came in) decides which is first when values do not chain.
    const values = [...kept.values()].sort((a, b) => a.index - b.index).map((v) => v.entry);
    return { outcome: { status: "parsed", parser: parser.name, values }, namelessSkipped };
  }
  return null;
}
