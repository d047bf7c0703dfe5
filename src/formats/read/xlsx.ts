/**
 * An `.xlsx` payment batch read as the text files are: its first sheet written out as a CSV file
 * (UTF-8, semicolons, every cell quoted, one line per sheet row so line numbers are row numbers),
 * which then goes through the same header detection and row checks. The sheet is streamed through
 * an XML parser (saxes), never loaded whole; a zip bomb is refused first (zip-bounds.ts), the
 * shared strings are bounded (xlsx-parts.ts), and a cell longer than MAX_RECORD_CHARS stops the
 * reading, naming its row. A part the workbook
 * reader cannot parse (malformed XML, an undefined entity) is a refusal too, never an internal error.
 */

import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { MAX_RECORD_CHARS } from "./limits.ts";
import { findParts, parsePart, readSharedStrings } from "./xlsx-parts.ts";
import { checkZipBounds, XlsxRefusedError } from "./zip-bounds.ts";

export { looksLikeZip, XlsxRefusedError } from "./zip-bounds.ts";

/** Excel's most rows and columns: a reference past them is a damaged sheet, not a gap to fill. */
const MAX_ROWS = 1_048_576;
const MAX_COLUMNS = 16_384;

function quoted(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/** The 1-based column of a cell reference ("AB12" is 28), or 0 when it has none. */
function columnOf(ref: string | undefined): number {
  let column = 0;
  for (const ch of ref ?? "") {
    const code = ch.charCodeAt(0);
    if (code < 65 || code > 90) break;
    column = column * 26 + code - 64;
    if (column > MAX_COLUMNS) return column;
  }
  return column;
}

/** A cell's value as the CSV holds it, from its type (`t`) and the text of its `<v>` or `<is>`. */
function cellValue(type: string | undefined, text: string, shared: readonly string[]): string {
  switch (type) {
    case "s":
      return shared[Number(text)] ?? "";
    case "inlineStr":
    case "str":
    case "e":
      return text;
    case "b":
      return text === "1" || text === "true" ? "true" : text === "" ? "" : "false";
    case "d":
      return /^\d{4}-\d{2}-\d{2}/.test(text) ? text.slice(0, 10) : text;
    default: {
      // A number as the file holds it, read and written back as the shortest text for it
      // (1.1000000000000001 is 1.1, as Excel shows it).
      const n = Number(text);
      return text.trim() !== "" && Number.isFinite(n) ? String(n) : text;
    }
  }
}

/** Writes the first sheet of the workbook at `path` to `csvPath`. XlsxRefusedError names what is wrong. */
export async function xlsxToCsv(path: string, csvPath: string): Promise<void> {
  const entries = await checkZipBounds(path);
  const out = createWriteStream(csvPath, { mode: 0o600 });
  try {
    const parts = await findParts(path, entries);
    if (!parts.sheet) throw new XlsxRefusedError("noSheet");
    const shared = await readSharedStrings(path, parts.sharedStrings);
    let pending: string[] = [];
    let written = 0;
    let rowNumber = 0;
    let cells: string[] = [];
    let column = 0;
    let type: string | undefined;
    let text = "";
    /** Where the text being read goes: a cell's `<v>`, its inline `<is><t>`, or nowhere. */
    let collecting = false;
    let inInline = false;
    let phonetic = 0;
    const flush = async () => {
      if (pending.length === 0) return;
      const lines = pending.join("");
      pending = [];
      if (!out.write(lines)) await once(out, "drain");
    };
    const damaged = (detail: string) => new XlsxRefusedError("malformed", { detail });
    await parsePart(
      path,
      parts.sheet,
      {
        open(name, a) {
          if (name === "row") {
            rowNumber = a.r ? Number(a.r) : rowNumber + 1;
            if (!Number.isInteger(rowNumber) || rowNumber < 1 || rowNumber > MAX_ROWS)
              throw damaged(`row number ${a.r}`);
            cells = [];
            column = 0;
          } else if (name === "c") {
            column = a.r ? columnOf(a.r) : column + 1;
            if (column < 1 || column > MAX_COLUMNS) throw damaged(`cell reference ${a.r}`);
            type = a.t;
            text = "";
          } else if (name === "v") collecting = true;
          else if (name === "is") inInline = true;
          else if (name === "rPh") phonetic++;
          else if (name === "t") collecting = inInline && phonetic === 0;
        },
        text(chunk) {
          if (!collecting) return;
          text += chunk;
          if (text.length > MAX_RECORD_CHARS)
            throw new XlsxRefusedError("longCell", { row: rowNumber, max: MAX_RECORD_CHARS });
        },
        close(name) {
          if (name === "v" || name === "t") collecting = false;
          else if (name === "is") inInline = false;
          else if (name === "rPh") phonetic--;
          else if (name === "c") {
            const value = cellValue(type, text, shared);
            if (value.length > MAX_RECORD_CHARS)
              throw new XlsxRefusedError("longCell", { row: rowNumber, max: MAX_RECORD_CHARS });
            while (cells.length < column - 1) cells.push("");
            cells[column - 1] = value;
          } else if (name === "row") {
            // Rows the sheet leaves out (empty ones) stay as empty lines, so line N is row N.
            const gap = "\n".repeat(Math.max(0, rowNumber - written - 1));
            pending.push(`${gap}${cells.map(quoted).join(";")}\n`);
            written = rowNumber;
          }
        },
      },
      flush,
    );
    await flush();
  } catch (error) {
    throw asRefusal(error);
  } finally {
    out.end();
    await once(out, "close");
  }
}

/**
 * What the workbook reader threw, as a refusal naming the parser's complaint ("1:150: undefined
 * entity."); the system's own errors (a full disk: they carry a code) stay what they are.
 */
function asRefusal(error: unknown): unknown {
  if (error instanceof XlsxRefusedError) return error;
  if (error instanceof Error && typeof (error as NodeJS.ErrnoException).code === "string") return error;
  const said = error instanceof Error ? error.message : String(error);
  const detail =
    said
      .replace(/[^\p{L}\p{N}\p{P}\p{Zs}]/gu, " ")
      .trim()
      .slice(0, 120) || "unreadable";
  return new XlsxRefusedError("malformed", { detail }, { cause: error });
}
