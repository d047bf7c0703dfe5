/**
 * CSV written as a stream for people's spreadsheets and pipelines: every text cell through
 * safeCell, fields quoted only when they hold the delimiter, a quote or a line break (CsvFormat,
 * which `regwatch changes --csv` uses too), output buffered into large writes and paused while the destination is full (a 200,000-row export
 * stays in bounded memory). The Hungarian Excel flavour is `;` with a UTF-8 BOM (without the BOM
 * Excel reads the bytes as the local code page) and a decimal comma.
 */
import type { Writable } from "node:stream";
import { terminalSafe } from "../terminal-text.ts";
import { assertOpen, drainOrClose } from "./drain.ts";
import { safeCell } from "./safe-cell.ts";

/** An exact decimal ("-1250.50") written as a number (with the writer's decimal mark). */
export interface DecimalCell {
  readonly decimal: string;
}

export type CsvCell = string | number | bigint | DecimalCell | null | undefined;

export interface CsvOptions {
  /** `,` (the default), `;` or a tab. */
  delimiter?: string;
  /** Start with a UTF-8 byte order mark (for Excel). */
  bom?: boolean;
  /** The decimal mark of numbers: "." (the default) or ",". */
  decimalMark?: "." | ",";
  /** Line ending: "\n" (the default) or "\r\n". */
  newline?: string;
  /**
   * The text is read on a terminal: control characters (ESC, BEL, CR, bidi overrides) in a
   * cell are written as visible escapes (see terminalSafe), so no cell can act on the screen.
   */
  terminal?: boolean;
}

/** The `;`, BOM and decimal comma that Excel with Hungarian settings opens without an import dialog. */
export const EXCEL_HU: CsvOptions = { delimiter: ";", bom: true, decimalMark: ",", newline: "\r\n" };

const PLAIN_DECIMAL = /^-?\d+(?:\.\d+)?$/;
/**
 * Characters gathered before they are written: a string of more than 64 Ki UTF-16 units is a
 * large object of V8's old generation (pages of its own, given back only by a full collection).
 */
const FLUSH_AT = 32 * 1024;

/**
 * How cells become CSV text, apart from where the text goes: every text cell through safeCell
 * (and, for a terminal, with its control characters escaped after that), quoted only when it
 * holds the delimiter, a quote or a line break. Pure.
 */
export class CsvFormat {
  readonly delimiter: string;
  readonly newline: string;
  private readonly decimalMark: "." | ",";
  private readonly needsQuotes: RegExp;
  private readonly terminal: boolean;

  constructor(options: CsvOptions = {}) {
    this.delimiter = options.delimiter ?? ",";
    if (![",", ";", "\t"].includes(this.delimiter)) {
      throw new Error(`CSV delimiter must be ",", ";" or a tab, not ${JSON.stringify(this.delimiter)}`);
    }
    this.decimalMark = options.decimalMark ?? ".";
    this.newline = options.newline ?? "\n";
    this.needsQuotes = new RegExp(`["\\r\\n${this.delimiter === "\t" ? "\\t" : this.delimiter}]`);
    this.terminal = options.terminal ?? false;
  }

  /** One field as written: text neutralised and quoted when needed, numbers with the decimal mark. */
  field(cell: CsvCell): string {
    if (cell === null || cell === undefined) return "";
    if (typeof cell === "number" || typeof cell === "bigint") return this.number(String(cell));
    if (typeof cell === "object") {
      return PLAIN_DECIMAL.test(cell.decimal) ? this.number(cell.decimal) : this.text(cell.decimal);
    }
    return this.text(cell);
  }

  /** One row, its line ending included. */
  line(cells: readonly CsvCell[]): string {
    let line = "";
    for (let i = 0; i < cells.length; i++) {
      if (i > 0) line += this.delimiter;
      line += this.field(cells[i]);
    }
    return line + this.newline;
  }

  private number(text: string): string {
    return this.decimalMark === "," ? text.replace(".", ",") : text;
  }

  /** A text cell as written (what field() writes of a string). */
  text(value: string): string {
    const neutral = safeCell(value);
    const safe = this.terminal ? terminalSafe(neutral) : neutral;
    return this.needsQuotes.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
  }
}

export class CsvWriter {
  private buffer = "";
  private readonly format: CsvFormat;

  constructor(
    private readonly out: Writable,
    options: CsvOptions = {},
  ) {
    this.format = new CsvFormat(options);
    if (options.bom) this.buffer = "\uFEFF";
  }

  /** Adds a row; resolves at once unless the destination asked to wait. */
  async row(cells: readonly CsvCell[]): Promise<void> {
    this.buffer += this.format.line(cells);
    if (this.buffer.length >= FLUSH_AT) await this.flush();
  }

  /** Adds several rows, written in pieces of FLUSH_AT, waiting at most once for the destination. */
  async rows(rows: Iterable<readonly CsvCell[]>): Promise<void> {
    await this.lines(rows, (cells) => this.format.line(cells));
  }

  /**
   * Adds several rows that `line` writes as text (with its line ending), as rows() does: for a
   * caller that writes some of its cells itself (format.text() of values it keeps).
   */
  async lines<T>(rows: Iterable<T>, line: (row: T) => string): Promise<void> {
    let full = false;
    for (const row of rows) {
      this.buffer += line(row);
      if (this.buffer.length >= FLUSH_AT) full = !this.send() || full;
    }
    if (full) await drainOrClose(this.out);
  }

  /** How this writer writes cells (for lines()). */
  get cells(): CsvFormat {
    return this.format;
  }

  /** Writes what is buffered; false when the destination asks to wait for 'drain'. */
  private send(): boolean {
    assertOpen(this.out);
    const chunk = this.buffer;
    this.buffer = "";
    return this.out.write(chunk);
  }

  /**
   * Writes what is buffered, waiting for the destination to drain when it is full; a
   * DestinationClosedError when it was closed first (a download whose client went away).
   */
  async flush(): Promise<void> {
    if (this.buffer === "") return;
    if (!this.send()) await drainOrClose(this.out);
  }
}
