/**
 * The verdicts as CSV for pipelines and spreadsheets, in file order, written as they are judged.
 * Comma-separated as before, the existing columns in their places and the new ones after them;
 * every text cell through safeCell (a name or reference starting with `=` cannot run as a
 * formula), amounts as plain numbers (a negative amount stays a number).
 */
import type { Writable } from "node:stream";
import { type CsvCell, CsvWriter } from "../formats/write/csv-writer.ts";
import { KeptTexts } from "../formats/write/kept-texts.ts";
import { jsonRow } from "./report-rows.ts";
import type { BatchSummary, RowSink } from "./sink.ts";
import type { CheckedRow } from "./verdicts.ts";

export const CSV_COLUMNS = [
  "line",
  "verdict",
  "detail",
  "tax_id",
  "bank_account",
  "account",
  "registry_name",
  "name",
  "amount",
  "currency",
  "reference",
  "next_step",
  // Added with issue 27, after the columns pipelines read by position.
  "tax_base",
  "payee_found_by",
  "amount_raw",
  "verified_by",
  "verified_on",
] as const;

/**
 * A row's cells in CSV_COLUMNS' order: jsonRow's values, the amount as a decimal. Listed rather
 * than looked up by column name (a lookup by a varying name was most of this function's time);
 * test/payments/report-csv.test.ts holds the list to CSV_COLUMNS.
 */
export function csvCells(r: CheckedRow): CsvCell[] {
  const row = jsonRow(r);
  return [
    row.line,
    row.verdict,
    row.detail,
    row.tax_id,
    row.bank_account,
    row.account,
    row.registry_name,
    row.name,
    row.amount === null ? null : { decimal: row.amount },
    row.currency,
    row.reference,
    row.next_step,
    row.tax_base,
    row.payee_found_by,
    row.amount_raw,
    row.verified_by,
    row.verified_on,
  ];
}

/**
 * Columns of csvCells whose values are each row's own (its line, amount, reference); the others
 * repeat from row to row (the verdict and its words, the payee's tax number, accounts, names,
 * the currency), and their text is made once per output and kept.
 */
const PER_ROW = new Set<string>(["line", "amount", "reference", "amount_raw", "verified_by", "verified_on"]);
const KEPT_COLUMNS = CSV_COLUMNS.map((column) => !PER_ROW.has(column));

export class CsvSink implements RowSink {
  private readonly csv: CsvWriter;
  private readonly kept: KeptTexts;
  private headed = false;

  constructor(out: Writable) {
    this.csv = new CsvWriter(out, { delimiter: "," });
    const format = this.csv.cells;
    this.kept = new KeptTexts((text) => format.text(text));
  }

  /** format.line(csvCells(r)), with the repeating columns' text kept. */
  private line(r: CheckedRow): string {
    const format = this.csv.cells;
    const cells = csvCells(r);
    let line = "";
    for (let i = 0; i < cells.length; i++) {
      if (i > 0) line += format.delimiter;
      const cell = cells[i];
      line += typeof cell === "string" && KEPT_COLUMNS[i] ? this.kept.of(cell) : format.field(cell);
    }
    return line + format.newline;
  }

  private async header(): Promise<void> {
    if (this.headed) return;
    this.headed = true;
    await this.csv.row(CSV_COLUMNS);
  }

  async rows(rows: readonly CheckedRow[]): Promise<void> {
    await this.header();
    await this.csv.lines(rows, (r) => this.line(r));
  }

  async end(_summary: BatchSummary): Promise<void> {
    await this.header();
    await this.csv.flush();
  }
}
