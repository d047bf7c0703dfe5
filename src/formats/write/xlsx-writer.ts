/**
 * An .xlsx workbook written as a stream: each sheet's XML is built row by row, encoded into UTF-8
 * buffers of 64 KB (utf8-chunks.ts) and compressed by Node's zlib on its thread pool
 * (zip-deflate.ts) into the zip (fflate's streaming Zip), so a 200,000-row sheet never sits in
 * memory and its compression runs beside the rows being built. Columns are typed: text cells are
 * written as inline strings (a text starting with `=` stays text; the workbook holds no formulas),
 * numbers as numbers with a number format (per cell, since amounts of different currencies have
 * different decimals), dates as dates (serial days with a date format). A row may be coloured;
 * the header row is bold and frozen. The styles, the workbook and its relationships are written
 * at the end (xlsx-parts.ts).
 */
import { createWriteStream } from "node:fs";
import type { Writable } from "node:stream";
import { finished } from "node:stream/promises";
import { Zip } from "fflate";
import { assertOpen, closedBeforeFinish, drainOrClose } from "./drain.ts";
import { Utf8Chunks } from "./utf8-chunks.ts";
import { columnLetters, packageParts, Styles, sheetName, XML_HEAD, xmlText } from "./xlsx-parts.ts";
import { NativeZipDeflate } from "./zip-deflate.ts";

export type XlsxColumnType = "text" | "number" | "date";

export interface XlsxColumn {
  header: string;
  type: XlsxColumnType;
  /** Width in characters; a guess from the header when absent. */
  width?: number;
  /** Number format of the column's cells ("#,##0.00", "yyyy-mm-dd"). */
  numFmt?: string;
}

/** A number with its own format, e.g. an amount with its currency's decimals. */
export interface FormattedNumber {
  readonly value: number;
  readonly numFmt: string;
}

export type XlsxCell = string | number | Date | FormattedNumber | null | undefined;

export interface XlsxRowStyle {
  /** Background of the row's cells, as RRGGBB. */
  fill?: string;
  /** Only these cells (0-based column indexes) are filled; all when absent. */
  fillColumns?: readonly number[];
}

/** Fills the console and the payment check use for verdicts. */
export const FILLS = { red: "F4C7C3", amber: "FCE8B2", green: "D9EAD3" } as const;

/** The Excel number format for `decimals` fraction digits, with thousands grouped. */
export function numberFormat(decimals: number): string {
  return decimals > 0 ? `#,##0.${"0".repeat(decimals)}` : "#,##0";
}

export interface XlsxSheet {
  /** Adds a row and writes it out. Values are matched to the columns by position. */
  row(cells: readonly XlsxCell[], style?: XlsxRowStyle): void;
  /**
   * Resolves once the destination has room for more. Rows are compressed as they are added and
   * handed to the destination at once, so a writer that adds rows faster than they are read would
   * hold them all in memory; awaiting this per chunk bounds it. A DestinationClosedError when the destination was closed
   * (a download whose client went away), which no 'drain' would ever follow.
   */
  drained(): Promise<void>;
  /** Ends the sheet; a sheet must be ended before the next one is added (or the workbook ended). */
  end(): void;
}

/** How many bytes of a sheet's XML are gathered before they are handed to the compressor. */
const CHUNK_BYTES = 64 * 1024;
/**
 * zlib's level for the parts. On the 240 MB of XML of 200,000 checked payments, level 3 takes
 * about 0.6 s of the compressor's core for 23 MB; level 6 (zlib's default) 1.6 s for 21 MB;
 * level 1 0.5 s for 25 MB.
 */
const LEVEL = 3;
/** Bytes of XML that may wait for the compressor before `drained()` waits for it. */
const BACKLOG = 1024 * 1024;
const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
/** Days from Excel's day 0 (1899-12-30, after its 1900 leap-year bug) to 1970-01-01. */
const EPOCH_SERIAL = 25_569;

export class XlsxWriter {
  private readonly stream: Writable;
  /** Rejects when a destination stream given to us closes before the workbook is finished. */
  private readonly closed: Promise<never> | null;
  private readonly zip: Zip;
  private readonly styles = new Styles();
  private readonly names: string[] = [];
  private readonly written: Promise<void>;
  private failure: unknown = null;
  private current: { end(): void } | null = null;

  /** Writes to `destination`: a writable stream or a file path. */
  constructor(destination: Writable | string) {
    const file = typeof destination === "string";
    this.stream = file ? createWriteStream(destination, { mode: 0o600 }) : destination;
    this.closed = file ? null : closedBeforeFinish(destination);
    if (file) this.stream.on("error", (error) => (this.failure ??= error));
    let done!: () => void;
    let fail!: (error: unknown) => void;
    this.written = new Promise<void>((resolve, reject) => {
      done = resolve;
      fail = reject;
    });
    this.written.catch(() => {});
    this.zip = new Zip((error, data, final) => {
      if (error) return fail(error);
      // A destination that went away takes nothing more; closedBeforeFinish says so to the caller.
      if (!this.stream.destroyed && !this.stream.writableEnded) this.stream.write(data);
      if (final) {
        this.stream.end();
        finished(this.stream).then(done, fail);
      }
    });
  }

  sheet(name: string, columns: readonly XlsxColumn[]): XlsxSheet {
    this.current?.end();
    const title = sheetName(name, this.names);
    this.names.push(title);
    const part = new NativeZipDeflate(`xl/worksheets/sheet${this.names.length}.xml`, LEVEL, BACKLOG);
    this.zip.add(part);
    const styles = this.styles;
    const columnStyles = columns.map((c) => (c.numFmt ? styles.index({ numFmt: c.numFmt }) : 0));
    const bold = styles.index({ bold: true });
    const widths = columns
      .map((c, i) => {
        const width = c.width ?? Math.max(10, c.header.length + 2);
        const style = columnStyles[i] ? ` style="${columnStyles[i]}"` : "";
        return `<col min="${i + 1}" max="${i + 1}" width="${width}" customWidth="1"${style}/>`;
      })
      .join("");
    const xml = new Utf8Chunks((bytes, final, release) => part.push(bytes, final, release), CHUNK_BYTES);
    xml.write(
      `${XML_HEAD}<worksheet xmlns="${MAIN}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">` +
        `<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>` +
        `<selection pane="bottomLeft" activeCell="A2" sqref="A2"/></sheetView></sheetViews>` +
        `<sheetFormatPr defaultRowHeight="15"/>${columns.length ? `<cols>${widths}</cols>` : ""}<sheetData>` +
        `<row r="1">${columns.map((c, i) => textCell(`${columnLetters(i + 1)}1`, bold, c.header)).join("")}</row>`,
    );
    const letters = columns.map((_, i) => columnLetters(i + 1));
    let rowNumber = 1;
    let ended = false;
    const sheet = {
      row(cells: readonly XlsxCell[], style?: XlsxRowStyle) {
        rowNumber++;
        const fill = style?.fill || undefined;
        const fillColumns = style?.fillColumns;
        const r = String(rowNumber);
        let line = `<row r="${r}">`;
        const count = Math.max(cells.length, columns.length);
        for (let i = 0; i < count; i++) {
          const filled =
            fill !== undefined && (fillColumns === undefined ? i < columns.length : fillColumns.includes(i));
          if (letters[i] === undefined) letters[i] = columnLetters(i + 1);
          const ref = letters[i] + r;
          line += cellXml(ref, cells[i], columns[i], filled ? fill : undefined, styles);
        }
        xml.write(`${line}</row>`);
      },
      drained: async () => {
        if (this.closed) assertOpen(this.stream);
        if (this.failure) throw this.failure;
        if (part.behind) await part.drained();
        if (this.stream.writableNeedDrain) await drainOrClose(this.stream);
      },
      end() {
        if (ended) return;
        ended = true;
        xml.write("</sheetData></worksheet>");
        xml.end();
      },
    };
    this.current = sheet;
    return sheet;
  }

  /** Finishes the file; resolves once everything is written (rejects when the destination closed first). */
  async end(): Promise<void> {
    this.current?.end();
    const parts = { ...packageParts(this.names), "xl/styles.xml": this.styles.xml() };
    for (const [name, xml] of Object.entries(parts)) {
      const part = new NativeZipDeflate(name, LEVEL);
      this.zip.add(part);
      part.push(Buffer.from(xml, "utf8"), true);
    }
    this.zip.end();
    if (this.closed) await Promise.race([this.written, this.closed]);
    else await this.written;
    if (this.failure) throw this.failure;
  }
}

const INLINE_TEXT = ' t="inlineStr"><is><t xml:space="preserve">';
const TEXT_END = "</t></is></c>";
/** ` s="N"` for style N (none for the default style 0), made once per style. */
const STYLE_ATTRIBUTES: string[] = [""];
function styleAttribute(style: number): string {
  let attribute = STYLE_ATTRIBUTES[style];
  if (attribute === undefined) {
    attribute = ` s="${style}"`;
    STYLE_ATTRIBUTES[style] = attribute;
  }
  return attribute;
}

function textCell(ref: string, style: number, text: string): string {
  return `<c r="${ref}"${styleAttribute(style)}${INLINE_TEXT}${xmlText(text)}${TEXT_END}`;
}

/** One cell's XML: its value by the column's type, its style from its format and the row's fill. */
function cellXml(
  ref: string,
  cell: XlsxCell,
  column: XlsxColumn | undefined,
  fill: string | undefined,
  styles: Styles,
): string {
  const value = cellValue(cell, column?.type ?? "text");
  const own = cell !== null && typeof cell === "object" && !(cell instanceof Date) ? cell.numFmt : undefined;
  const numFmt = own ?? column?.numFmt ?? (value instanceof Date ? "mm-dd-yy" : undefined);
  if (value === null && !fill && !numFmt) return "";
  const style = styles.cell(numFmt, fill);
  const s = styleAttribute(style);
  if (typeof value === "string") return `<c r="${ref}"${s}${INLINE_TEXT}${xmlText(value)}${TEXT_END}`;
  const number = value instanceof Date ? value.getTime() / 86_400_000 + EPOCH_SERIAL : value;
  if (number === null || !Number.isFinite(number)) return `<c r="${ref}"${s}/>`;
  return `<c r="${ref}"${s}><v>${number}</v></c>`;
}
function cellValue(cell: XlsxCell, type: XlsxColumnType): string | number | Date | null {
  if (cell === null || cell === undefined) return null;
  if (cell instanceof Date) return cell;
  if (typeof cell === "object") return cell.value;
  if (type === "number" && typeof cell === "string") {
    const n = Number(cell);
    return cell.trim() !== "" && Number.isFinite(n) ? n : cell;
  }
  if (type === "date" && typeof cell === "string" && /^\d{4}-\d{2}-\d{2}$/.test(cell)) {
    return new Date(`${cell}T00:00:00Z`);
  }
  return cell;
}
