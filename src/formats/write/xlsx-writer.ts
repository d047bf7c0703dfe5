/**
 * An .xlsx workbook written as a stream through exceljs's WorkbookWriter: each row is committed
 * (serialised into the zip) as soon as it is added, so a 200,000-row sheet never sits in memory.
 * Columns are typed: text cells are written as strings (a text starting with `=` stays text; the
 * workbook holds no formulas), numbers as numbers with a number format (per cell, since amounts of
 * different currencies have different decimals), dates as dates. A row may be coloured; the
 * header row is bold and frozen.
 */
import { once } from "node:events";
import { createRequire } from "node:module";
import type { Writable } from "node:stream";
import type ExcelJS from "exceljs";
import { assertOpen, closedBeforeFinish, drainOrClose } from "./drain.ts";

let excel: typeof ExcelJS | undefined;

/**
 * exceljs, loaded at the first workbook rather than when this module is: with its zip libraries
 * it holds about 26 MB, which the console and the payment check otherwise carried from their
 * start whether or not anyone asked for a workbook. Synchronous (a CommonJS package, required),
 * so a writer is still made with `new`.
 */
export function loadExcel(): typeof ExcelJS {
  excel ??= createRequire(import.meta.url)("exceljs") as typeof ExcelJS;
  return excel;
}

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
   * Resolves once the rows written so far have been taken by the zip compressor and the
   * destination (a stream) has room. exceljs passes a sheet's XML on without waiting for it, so a
   * writer that adds rows faster than they are compressed or read would hold them all in memory;
   * awaiting this per chunk bounds it. A DestinationClosedError when the destination was closed
   * (a download whose client went away), which no 'drain' would ever follow.
   */
  drained(): Promise<void>;
  /** Ends the sheet; a sheet must be ended before the next one is added (or the workbook ended). */
  end(): void;
}

/** A stream exceljs pipes a sheet into (readable-stream's, which keeps its buffer in _writableState). */
interface BufferedPipe extends NodeJS.EventEmitter {
  _writableState?: { length: number };
  writableLength?: number;
}

/** Bytes of a sheet's XML allowed to wait for the compressor before rows are added again. */
const DRAINED_BELOW = 1024 * 1024;

export class XlsxWriter {
  private readonly workbook: ExcelJS.stream.xlsx.WorkbookWriter;
  /** The destination stream (none for a file path) and a promise rejecting when it closes early. */
  private readonly out: { stream: Writable; closed: Promise<never> } | null;

  /** Writes to `destination`: a writable stream or a file path. */
  constructor(destination: Writable | string) {
    this.out =
      typeof destination === "string"
        ? null
        : { stream: destination, closed: closedBeforeFinish(destination) };
    this.workbook = new (loadExcel().stream.xlsx.WorkbookWriter)({
      ...(typeof destination === "string" ? { filename: destination } : { stream: destination }),
      useStyles: true,
      useSharedStrings: false,
    });
  }

  sheet(name: string, columns: readonly XlsxColumn[]): XlsxSheet {
    const sheet = this.workbook.addWorksheet(name, { views: [{ state: "frozen", ySplit: 1 }] });
    sheet.columns = columns.map((c) => ({
      header: c.header,
      width: c.width ?? Math.max(10, c.header.length + 2),
      ...(c.numFmt ? { style: { numFmt: c.numFmt } } : {}),
    }));
    const header = sheet.getRow(1);
    header.font = { bold: true };
    header.commit();
    const out = this.out;
    return {
      row(cells, style) {
        const row = sheet.addRow(cells.map((cell, i) => cellValue(cell, columns[i]?.type ?? "text")));
        cells.forEach((cell, i) => {
          if (cell !== null && typeof cell === "object" && !(cell instanceof Date)) {
            row.getCell(i + 1).numFmt = cell.numFmt;
          }
        });
        if (style?.fill) {
          const fill: ExcelJS.Fill = {
            type: "pattern",
            pattern: "solid",
            fgColor: { argb: `FF${style.fill}` },
          };
          const which = style.fillColumns ?? columns.map((_, i) => i);
          for (const i of which) row.getCell(i + 1).fill = fill;
        }
        row.commit();
      },
      async drained() {
        if (out) assertOpen(out.stream);
        // The sheet's stream (exceljs's StreamBuf) forwards to the zip entry without backpressure;
        // its pipes are where the XML waits. Not a documented API: absent, there is nothing to wait for.
        const pipes = (sheet as unknown as { stream?: { pipes?: BufferedPipe[] } }).stream?.pipes ?? [];
        for (const pipe of pipes) {
          while ((pipe._writableState?.length ?? pipe.writableLength ?? 0) > DRAINED_BELOW) {
            await (out ? Promise.race([once(pipe, "drain"), out.closed]) : once(pipe, "drain"));
          }
        }
        if (out?.stream.writableNeedDrain) await drainOrClose(out.stream);
      },
      end() {
        sheet.commit();
      },
    };
  }

  /** Finishes the file; resolves once everything is written (rejects when the destination closed first). */
  async end(): Promise<void> {
    if (this.out) await Promise.race([this.workbook.commit(), this.out.closed]);
    else await this.workbook.commit();
  }
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
