/**
 * An `.xlsx` payment batch read as the text files are: its first sheet written out as a CSV file
 * (UTF-8, semicolons, every cell quoted, one line per sheet row so line numbers are row numbers),
 * which then goes through the same header detection and row checks. The workbook is streamed
 * (exceljs's streaming reader), never loaded whole; a zip bomb is refused first (zip-bounds.ts),
 * and a cell longer than MAX_RECORD_CHARS stops the reading, naming its row. A part the workbook
 * reader cannot parse (malformed XML, an undefined entity) is a refusal too, never an internal error.
 */

import { once } from "node:events";
import { createWriteStream } from "node:fs";
import type ExcelJS from "exceljs";
import { loadExcel } from "../write/xlsx-writer.ts";
import { MAX_RECORD_CHARS } from "./limits.ts";
import { checkZipBounds, XlsxRefusedError } from "./zip-bounds.ts";

export { looksLikeZip, XlsxRefusedError } from "./zip-bounds.ts";

/** A cell's value as the text a CSV export would hold. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : String(value);
  if (typeof value === "string" || typeof value === "boolean") return String(value);
  if (typeof value === "object") {
    const v = value as { richText?: { text?: string }[]; text?: unknown; result?: unknown; error?: unknown };
    if (Array.isArray(v.richText)) return v.richText.map((r) => r.text ?? "").join("");
    if ("result" in v) return cellText(v.result);
    if (v.text !== undefined) return cellText(v.text);
    if (v.error !== undefined) return String(v.error);
  }
  return String(value);
}

function quoted(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/** Writes the first sheet of the workbook at `path` to `csvPath`. XlsxRefusedError names what is wrong. */
export async function xlsxToCsv(path: string, csvPath: string): Promise<void> {
  await checkZipBounds(path);
  const out = createWriteStream(csvPath, { mode: 0o600 });
  let written = 0;
  let sheets = 0;
  try {
    // exceljs is loaded only when a workbook is read (xlsx-writer.ts says why).
    const reader = new (loadExcel().stream.xlsx.WorkbookReader)(path, {
      worksheets: "emit",
      sharedStrings: "cache",
      hyperlinks: "ignore",
      styles: "ignore",
      entries: "ignore",
    });
    for await (const sheet of reader) {
      sheets++;
      for await (const row of sheet as AsyncIterable<ExcelJS.Row>) {
        const values = (row.values as unknown[]).slice(1).map(cellText);
        if (values.some((v) => v.length > MAX_RECORD_CHARS)) {
          throw new XlsxRefusedError("longCell", { row: row.number, max: MAX_RECORD_CHARS });
        }
        // Rows the sheet leaves out (empty ones) stay as empty lines, so line N is row N.
        const gap = "\n".repeat(Math.max(0, row.number - written - 1));
        if (!out.write(`${gap}${values.map(quoted).join(";")}\n`)) await once(out, "drain");
        written = row.number;
      }
      break;
    }
    if (sheets === 0) throw new XlsxRefusedError("noSheet");
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
