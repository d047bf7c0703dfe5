/**
 * Finding the header line of a payment file and its delimiter (pure). Some bank exports put one
 * to three title lines above the header, so the first of the first ten lines that has a known
 * layout is the header. The delimiter is decided on that line alone (the one of `;`, tab and `,`
 * that occurs most outside quotes), so a comma inside a later amount never splits it.
 */
import { parse } from "csv-parse/sync";
import type { FileProblem } from "../batch-row.ts";
import { type ColumnLayout, type ColumnMapping, knownColumnCount, matchLayout } from "./columns.ts";

export const HEADER_SEARCH_LINES = 10;
/** Rows under a header line an ambiguous header is told by (column-names.ts: "Számlaszám"). */
const SAMPLE_ROWS = 20;

export interface HeaderLine {
  /** 1-based line of the file. */
  line: number;
  delimiter: string;
  headers: string[];
  layout: ColumnLayout;
}

export type HeaderSearch = { ok: true; header: HeaderLine } | { ok: false; problems: FileProblem[] };

/** The delimiter a header line uses: the most frequent of `;`, tab and `,` outside quotes. */
export function delimiterOf(line: string): string {
  const unquoted = line.replace(/"[^"]*"/g, "");
  let best = ",";
  let bestCount = 0;
  for (const candidate of [",", ";", "\t"]) {
    const count = unquoted.split(candidate).length - 1;
    if (count >= bestCount && count > 0) {
      best = candidate;
      bestCount = count;
    }
  }
  return best;
}

/** A line's cells, split at `delimiter` (quotes honoured); undefined when the line cannot be read. */
export function cellsOf(line: string, delimiter: string): string[] | undefined {
  try {
    const records = parse(line, { delimiter, relax_quotes: true, trim: true }) as string[][];
    return records[0];
  } catch {
    return undefined;
  }
}

/**
 * The header among the first lines of `text` (the file's start, decoded, without a BOM). When no
 * line will do, the problems of the line that names the most known columns are given (the first
 * non-empty line when none names any), so a typo in `--columns` is shown on the real header line.
 */
export function findHeaderLine(text: string, given: ColumnMapping): HeaderSearch {
  const all = text.split(/\r\n|\n|\r/, HEADER_SEARCH_LINES + SAMPLE_ROWS);
  const lines = all.slice(0, HEADER_SEARCH_LINES);
  let best: { known: number; problems: FileProblem[] } | undefined;
  for (let at = 0; at < lines.length; at++) {
    const raw = lines[at]!;
    if (raw.trim() === "") continue;
    const delimiter = delimiterOf(raw);
    const cells = cellsOf(raw, delimiter);
    if (cells === undefined) continue;
    // A trailing delimiter on the header line names no column.
    const headers = cells.slice(0, cells.findLastIndex((c) => c !== "") + 1);
    const samples = all
      .slice(at + 1, at + 1 + SAMPLE_ROWS)
      .filter((l) => l.trim() !== "")
      .map((l) => cellsOf(l, delimiter) ?? []);
    const match = matchLayout(headers, given, samples);
    if (match.ok) return { ok: true, header: { line: at + 1, delimiter, headers, layout: match.layout } };
    const known = knownColumnCount(headers, given);
    if (best === undefined || known > best.known) {
      best = { known, problems: match.problems.map((message) => ({ line: at + 1, message })) };
    }
  }
  if (best === undefined)
    return { ok: false, problems: [{ line: 1, message: "the file is empty: expected a header row" }] };
  const searched = lines.filter((line) => line.trim() !== "").length;
  if (searched > 1) {
    best.problems.push({ line: 1, message: `no usable header in the first ${lines.length} lines` });
  }
  return { ok: false, problems: best.problems };
}

/** A header line found by `findHeaderWhere`: where it is, its delimiter and its cells. */
export interface FoundHeader {
  /** 1-based line of the text. */
  line: number;
  delimiter: string;
  headers: string[];
}

/**
 * The first of the first HEADER_SEARCH_LINES lines whose cells `accept` takes, with the delimiter
 * found as for a payment file (title lines above the header are passed over); other readers of
 * tabular files (the watch import) bring their own idea of a header.
 */
export function findHeaderWhere(
  text: string,
  accept: (headers: string[]) => boolean,
): FoundHeader | undefined {
  const lines = text.split(/\r\n|\n|\r/, HEADER_SEARCH_LINES);
  for (let at = 0; at < lines.length; at++) {
    const raw = lines[at]!;
    if (raw.trim() === "") continue;
    const delimiter = delimiterOf(raw);
    const cells = cellsOf(raw, delimiter);
    if (cells === undefined) continue;
    const headers = cells.slice(0, cells.findLastIndex((c) => c !== "") + 1);
    if (accept(headers)) return { line: at + 1, delimiter, headers };
  }
  return undefined;
}
