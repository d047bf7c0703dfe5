/**
 * Parsing a body too large to load whole (above PARSE_MAX_BYTES): a parser offering server-side
 * extraction gets the elements of its array from the database a page at a time and reads each
 * with the same function as the whole-body path, so a 55 MB change file costs this process one
 * page of elements plus one value per distinct heading.
 */
import { bodyArrayPages, bodyHasArray } from "../db/change-values.ts";
import type { Sql } from "../db/connect.ts";
import { type ChangeFileParser, type HeadingValue, ParseFailure, type ParseOutcome } from "./types.ts";

/** Elements pulled from the database at once. */
export const EXTRACTION_PAGE = 1000;
/** Distinct headings one file may carry on this path; a registry has a few dozen. */
export const MAX_HEADINGS = 10_000;

/**
 * The outcome for one too-large body stored as JSON, or null when no parser offering extraction
 * recognises it (the caller then records it as not parsed for its size).
 */
export async function parseLargeBody(
  sql: Sql,
  path: string,
  parsers: readonly ChangeFileParser[],
): Promise<ParseOutcome | null> {
  for (const parser of parsers) {
    const extraction = parser.extraction;
    if (!extraction) continue;
    if (!(await bodyHasArray(sql, path, extraction.key, extraction.marker))) continue;
    // The last value of each heading wins (by position, whatever order the pages come in).
    const last = new Map<string, { index: number; value: HeadingValue }>();
    try {
      for await (const page of bodyArrayPages(sql, path, extraction.key, EXTRACTION_PAGE)) {
        for (const { entry, index } of page) {
          const value = extraction.element(entry, index);
          const seen = last.get(value.heading);
          if (seen && seen.index > index) continue;
          if (!seen && last.size >= MAX_HEADINGS)
            throw new ParseFailure(`more than ${MAX_HEADINGS} distinct headings in one file`);
          last.set(value.heading, { index, value });
        }
      }
    } catch (error) {
      if (error instanceof ParseFailure)
        return { status: "failed", parser: parser.name, reason: error.message };
      throw error;
    }
    const values = [...last.values()].sort((a, b) => a.index - b.index).map((v) => v.value);
    return { status: "parsed", parser: parser.name, values };
  }
  return null;
}
