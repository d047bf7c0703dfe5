/**
 * A recorded payment batch as a download, streamed from a cursor over payment_checks: CSV with
 * `;`, a BOM and a decimal comma (Hungarian Excel), every text cell neutralised; or a workbook
 * with the verdict cells coloured (held red or amber, passing green) and amounts as numbers with
 * their currency's decimals.
 */
import type { Writable } from "node:stream";
import type { Sql } from "../../db/connect.ts";
import { currencyDecimals } from "../../formats/read/amounts.ts";
import { CsvWriter, EXCEL_HU } from "../../formats/write/csv-writer.ts";
import { FILLS, numberFormat, XlsxWriter } from "../../formats/write/xlsx-writer.ts";
import { batchChecksQuery, type PaymentCheckRow } from "../sql/payments.ts";
import { verdictWords } from "./payments-view.ts";

const CURSOR_ROWS = 1000;

const COLUMNS = [
  "line",
  "tax_id",
  "name",
  "registry_name",
  "bank_account",
  "amount",
  "currency",
  "reference",
  "verdict",
  "held",
  "detail",
  "next_step",
  "verified_by",
  "verified_on",
] as const;

/** A row's cells in COLUMNS order, the amount given by the caller (a CSV decimal or a formatted number). */
function cells<A>(r: PaymentCheckRow, amount: A, held: boolean) {
  return [
    r.line,
    r.taxId ?? "",
    r.name ?? "",
    r.registryName ?? "",
    r.bankAccount,
    r.amount === null ? (r.amountRaw ?? null) : amount,
    r.currency,
    r.reference ?? "",
    r.verdict,
    held ? "yes" : "no",
    r.detail ?? "",
    r.nextStep ?? "",
    r.verifiedBy ?? "",
    r.verifiedOn,
  ] as const;
}

/** Writes the batch's rows as CSV to `out` (not ended). */
export async function writeBatchCsv(sql: Sql, batchId: string, out: Writable): Promise<void> {
  const csv = new CsvWriter(out, EXCEL_HU);
  await csv.row(COLUMNS);
  for await (const rows of batchChecksQuery(sql, batchId).cursor(CURSOR_ROWS)) {
    for (const r of rows) {
      await csv.row(cells(r, { decimal: r.amount ?? "" }, verdictWords(r.verdict).held));
    }
  }
  await csv.flush();
}

const FILL_OF = { red: FILLS.red, amber: FILLS.amber, green: FILLS.green } as const;
const VERDICT_COLUMN = COLUMNS.indexOf("verdict");

function decimalsOf(currency: string | null): number {
  try {
    return currency ? currencyDecimals(currency) : 2;
  } catch {
    return 2;
  }
}

/** Writes the batch's rows as a workbook to `out` and ends it. */
export async function writeBatchXlsx(sql: Sql, batchId: string, out: Writable): Promise<void> {
  const book = new XlsxWriter(out);
  const sheet = book.sheet("payments", [
    { header: "line", type: "number", width: 7 },
    { header: "tax_id", type: "text", width: 14 },
    { header: "name", type: "text", width: 30 },
    { header: "registry_name", type: "text", width: 30 },
    { header: "bank_account", type: "text", width: 28 },
    { header: "amount", type: "number", width: 16 },
    { header: "currency", type: "text", width: 8 },
    { header: "reference", type: "text", width: 18 },
    { header: "verdict", type: "text", width: 26 },
    { header: "held", type: "text", width: 6 },
    { header: "detail", type: "text", width: 50 },
    { header: "next_step", type: "text", width: 50 },
    { header: "verified_by", type: "text", width: 14 },
    { header: "verified_on", type: "date", width: 12, numFmt: "yyyy-mm-dd" },
  ]);
  for await (const rows of batchChecksQuery(sql, batchId).cursor(CURSOR_ROWS)) {
    for (const r of rows) {
      const words = verdictWords(r.verdict);
      const amount = { value: Number(r.amount), numFmt: numberFormat(decimalsOf(r.currency)) };
      sheet.row(cells(r, amount, words.held), {
        fill: FILL_OF[words.severity],
        fillColumns: [VERDICT_COLUMN],
      });
    }
    // A reader that takes the file slowly holds the cursor back, not the workbook in memory.
    await sheet.drained();
  }
  sheet.end();
  await book.end();
}
