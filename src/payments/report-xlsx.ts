/**
 * The verdicts as an Excel workbook (`--xlsx FILE`), written as a stream: a "payments" sheet
 * with one row per payment in file order (header frozen, the verdict cell coloured: red for a
 * payment the file or the registry rules out, amber for one that waits for a confirmation or
 * more data, green for one that passes), amounts as numbers with their currency's decimals, and
 * a "totals" sheet per currency. Text cells are text, never formulas, so nothing in them is
 * altered.
 */
import { rm } from "node:fs/promises";
import type { Writable } from "node:stream";
import {
  FILLS,
  numberFormat,
  type XlsxCell,
  type XlsxColumn,
  type XlsxRowStyle,
  type XlsxSheet,
  XlsxWriter,
} from "../formats/write/xlsx-writer.ts";
import { jsonRow } from "./report-rows.ts";
import type { BatchSummary, RowSink } from "./sink.ts";
import { decimalsOf } from "./totals.ts";
import type { CheckedRow, Verdict } from "./verdicts.ts";

const COLUMNS: readonly XlsxColumn[] = [
  { header: "line", type: "number", width: 8 },
  { header: "verdict", type: "text", width: 26 },
  { header: "amount", type: "number", width: 16 },
  { header: "currency", type: "text", width: 9 },
  { header: "name (file)", type: "text", width: 30 },
  { header: "registry name", type: "text", width: 30 },
  { header: "tax id (file)", type: "text", width: 15 },
  { header: "tax base", type: "text", width: 10 },
  { header: "payee found by", type: "text", width: 14 },
  { header: "account", type: "text", width: 28 },
  { header: "bank account (file)", type: "text", width: 30 },
  { header: "reference", type: "text", width: 20 },
  { header: "detail", type: "text", width: 60 },
  { header: "next step", type: "text", width: 60 },
  { header: "amount (file)", type: "text", width: 16 },
  { header: "verified by", type: "text", width: 16 },
  { header: "verified on", type: "date", width: 12, numFmt: "yyyy-mm-dd" },
];

/** Waits for a person or more data (amber), rather than ruled out (red). */
const WAITING: ReadonlySet<Verdict> = new Set([
  "account_recently_changed",
  "account_change_unverified",
  "unknown_business",
  "unknown_account_holder",
]);

export function verdictFill(verdict: Verdict): string {
  if (verdict === "ok" || verdict === "not_watched") return FILLS.green;
  return WAITING.has(verdict) ? FILLS.amber : FILLS.red;
}

/** The number format for each count of decimals, made once rather than for every row. */
const FORMATS: string[] = [];

function amountCell(amount: string | null, currency: string | null): XlsxCell {
  if (amount === null) return null;
  const decimals = decimalsOf(currency ?? "");
  let numFmt = FORMATS[decimals];
  if (numFmt === undefined) {
    numFmt = numberFormat(decimals);
    FORMATS[decimals] = numFmt;
  }
  return { value: Number(amount), numFmt };
}

/** A row's look: only its verdict cell is coloured. One object per fill, shared by the rows. */
const ROW_STYLES = new Map<string, XlsxRowStyle>(
  Object.values(FILLS).map((fill) => [fill, { fill, fillColumns: [1] }]),
);

export class XlsxSink implements RowSink {
  private xlsx: XlsxWriter | null = null;
  private sheet: XlsxSheet | null = null;

  /** Nothing is written until the first rows: a file refused as a whole leaves no workbook. */
  constructor(private readonly destination: Writable | string) {}

  private open(): { xlsx: XlsxWriter; sheet: XlsxSheet } {
    this.xlsx ??= new XlsxWriter(this.destination);
    this.sheet ??= this.xlsx.sheet("payments", COLUMNS);
    return { xlsx: this.xlsx, sheet: this.sheet };
  }

  async rows(rows: readonly CheckedRow[]): Promise<void> {
    const { sheet } = this.open();
    for (const r of rows) {
      const j = jsonRow(r);
      sheet.row(
        [
          j.line,
          j.verdict,
          amountCell(j.amount, j.currency),
          j.currency,
          j.name,
          j.registry_name,
          j.tax_id,
          j.tax_base,
          j.payee_found_by,
          j.account,
          j.bank_account,
          j.reference,
          j.detail,
          j.next_step,
          j.amount_raw,
          j.verified_by,
          j.verified_on,
        ],
        ROW_STYLES.get(verdictFill(r.verdict)),
      );
    }
    await sheet.drained();
  }

  async end(summary: BatchSummary): Promise<void> {
    const { xlsx, sheet } = this.open();
    sheet.end();
    const totals = xlsx.sheet("totals", [
      { header: "currency", type: "text", width: 10 },
      { header: "amount", type: "number", width: 20 },
      { header: "rows", type: "number", width: 8 },
      { header: "held", type: "number", width: 20 },
      { header: "held rows", type: "number", width: 10 },
    ]);
    for (const t of summary.totals) {
      const numFmt = numberFormat(t.decimals);
      totals.row([
        t.currency,
        { value: Number(t.amount), numFmt },
        t.rows,
        { value: Number(t.held), numFmt },
        t.heldRows,
      ]);
    }
    totals.end();
    await xlsx.end();
  }

  /** A check that failed leaves no half-written workbook behind (a file it was given by path). */
  async abort(): Promise<void> {
    if (this.xlsx && typeof this.destination === "string") await rm(this.destination, { force: true });
  }
}
