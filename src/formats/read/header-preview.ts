/**
 * What the console shows when a payment file's header is not recognised: the line most likely to be
 * the header (the first of the first lines with the most cells), the first rows under it, and the
 * header's signature (its cells as the reader compares headers), under which a clerk's choice of
 * columns is remembered. Reads the file's start only, with the reader's own encoding detection.
 */
import type { ColumnMapping } from "./columns.ts";
import { headerKey } from "./columns.ts";
import { encodingOf, readSample } from "./detect-file.ts";
import { decodeSample } from "./encoding.ts";
import { cellsOf, delimiterOf, findHeaderLine, HEADER_SEARCH_LINES } from "./header.ts";

export const PREVIEW_ROWS = 5;

export interface HeaderPreview {
  /** The reader finds a header with the columns given (none: its known names alone). */
  recognised: boolean;
  /** Field -> header the reader reads, when recognised (with the columns given); else null. */
  columns: ColumnMapping | null;
  headers: string[];
  rows: string[][];
  signature: string;
  encoding: string;
}

/** The signature a header's column choice is kept under. */
export function headerSignature(headers: readonly string[]): string {
  return headers.map(headerKey).join("|");
}

export async function previewHeader(
  path: string,
  encoding: string | undefined,
  given: ColumnMapping = {},
): Promise<HeaderPreview> {
  const start = await readSample(path);
  const detected = await encodingOf(path, encoding, start);
  const text = decodeSample(start.sample, detected.encoding).replace(/^\uFEFF/, "");
  const found = findHeaderLine(text, given);
  const recognised = found.ok;
  const lines = text.split(/\r\n|\n|\r/, HEADER_SEARCH_LINES + PREVIEW_ROWS + 1);
  let best = { at: -1, cells: [] as string[], delimiter: "," };
  for (let at = 0; at < Math.min(lines.length, HEADER_SEARCH_LINES); at++) {
    const raw = lines[at]!;
    if (raw.trim() === "") continue;
    const delimiter = delimiterOf(raw);
    const all = cellsOf(raw, delimiter) ?? [];
    const cells = all.slice(0, all.findLastIndex((x) => x !== "") + 1);
    if (cells.filter((c) => c !== "").length > best.cells.filter((c) => c !== "").length) {
      best = { at, cells, delimiter };
    }
  }
  const rows = lines
    .slice(best.at + 1)
    .filter((l) => l.trim() !== "")
    .slice(0, PREVIEW_ROWS)
    .map((l) => cellsOf(l, best.delimiter) ?? [l]);
  return {
    recognised,
    columns: found.ok ? found.header.layout.columns : null,
    headers: best.cells,
    rows,
    signature: headerSignature(best.cells),
    encoding: detected.encoding,
  };
}
