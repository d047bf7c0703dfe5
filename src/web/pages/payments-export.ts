/**
 * A recorded payment batch as a download, streamed from a cursor over payment_checks: CSV with
 * `;`, a BOM and a decimal comma (Hungarian Excel), every text cell neutralised; or a workbook
 * with the verdict cells coloured (held red or amber, passing green), amounts as numbers with
 * their currency's decimals and days as date cells. A person's download speaks the reader's
 * language (column names, verdicts, held, details and next steps); a machine's keeps the keys and
 * codes (download-audience.ts).
 */
import type { Writable } from "node:stream";
import type { Sql } from "../../db/connect.ts";
import { currencyDecimals } from "../../formats/read/amounts.ts";
import { CsvWriter, EXCEL_HU } from "../../formats/write/csv-writer.ts";
import { FILLS, numberFormat, XlsxWriter } from "../../formats/write/xlsx-writer.ts";
import { formatsFor } from "../../i18n/format.ts";
import { storedWords } from "../../i18n/said-words.ts";
import { batchChecksQuery, type PaymentCheckRow } from "../sql/payments.ts";
import {
  columnNames,
  type DownloadColumn,
  type DownloadWords,
  downloadSheet,
  yesNo,
} from "./download-audience.ts";
import { verdictWords } from "./payments-view.ts";

const CURSOR_ROWS = 1000;

const COLUMNS: readonly DownloadColumn[] = [
  { key: "line", type: "number", width: 7 },
  { key: "tax_id", type: "text", width: 14 },
  { key: "name", type: "text", width: 30 },
  { key: "registry_name", type: "text", width: 30 },
  { key: "bank_account", type: "text", width: 28 },
  { key: "amount", type: "number", width: 16 },
  { key: "currency", type: "text", width: 8 },
  { key: "reference", type: "text", width: 18 },
  { key: "verdict", type: "text", width: 26 },
  { key: "held", type: "text", width: 6 },
  { key: "detail", type: "text", width: 50 },
  { key: "next_step", type: "text", width: 50 },
  { key: "verified_by", type: "text", width: 14 },
  { key: "verified_on", type: "date", width: 12 },
];

/** A row's cells in COLUMNS order, the amount given by the caller (a CSV decimal or a formatted number). */
function cells<A>(r: PaymentCheckRow, amount: A, words: DownloadWords) {
  const verdict = verdictWords(r.verdict, words.i18n);
  const person = words.audience === "person";
  // Days have no zone: any zone's formats say them alike.
  const said = (stored: unknown, english: string | null) =>
    person ? storedWords(words.i18n, formatsFor(words.i18n.locale, "UTC"), stored, english) : english;
  return [
    r.line,
    r.taxId ?? "",
    r.name ?? "",
    r.registryName ?? "",
    r.bankAccount,
    r.amount === null ? (r.amountRaw ?? null) : amount,
    r.currency,
    r.reference ?? "",
    person ? verdict.words : r.verdict,
    yesNo(words, verdict.held),
    said(r.detailSaid, r.detail) ?? "",
    said(r.nextStepSaid, r.nextStep) ?? "",
    r.verifiedBy ?? "",
    r.verifiedOn,
  ] as const;
}

/** Writes the batch's rows as CSV to `out` (not ended). */
export async function writeBatchCsv(
  sql: Sql,
  batchId: string,
  out: Writable,
  words: DownloadWords,
): Promise<void> {
  const csv = new CsvWriter(out, EXCEL_HU);
  await csv.row(columnNames("payments", COLUMNS, words));
  for await (const rows of batchChecksQuery(sql, batchId).cursor(CURSOR_ROWS)) {
    for (const r of rows) await csv.row(cells(r, { decimal: r.amount ?? "" }, words));
  }
  await csv.flush();
}

const FILL_OF = { red: FILLS.red, amber: FILLS.amber, green: FILLS.green } as const;
const VERDICT_COLUMN = COLUMNS.findIndex((c) => c.key === "verdict");

function decimalsOf(currency: string | null): number {
  try {
    return currency ? currencyDecimals(currency) : 2;
  } catch {
    return 2;
  }
}

/** Writes the batch's rows as a workbook to `out` and ends it. */
export async function writeBatchXlsx(
  sql: Sql,
  batchId: string,
  out: Writable,
  words: DownloadWords,
): Promise<void> {
  const book = new XlsxWriter(out);
  const sheet = downloadSheet(book, "payments", COLUMNS, words);
  for await (const rows of batchChecksQuery(sql, batchId).cursor(CURSOR_ROWS)) {
    for (const r of rows) {
      const amount = { value: Number(r.amount), numFmt: numberFormat(decimalsOf(r.currency)) };
      sheet.row(cells(r, amount, words), {
        fill: FILL_OF[verdictWords(r.verdict).severity],
        fillColumns: [VERDICT_COLUMN],
      });
    }
    // A reader that takes the file slowly holds the cursor back, not the workbook in memory.
    await sheet.drained();
  }
  sheet.end();
  await book.end();
}
