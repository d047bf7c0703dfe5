/**
 * The change feed's downloads, written as a stream: the feed's statement is read through a
 * cursor a few hundred rows at a time and each batch written out before the next is read, so a
 * long period never sits in memory. CSV is `;` with a BOM and a decimal comma (Hungarian Excel
 * opens it in columns), every text cell neutralised against formulas; the workbook has one row
 * per changed heading with the day as a date cell. A person's download speaks the reader's
 * language (column names, headings and values in words, days in the language's form); a
 * machine's keeps the column keys and codes (download-audience.ts).
 */
import type { Writable } from "node:stream";
import { feedCells } from "../../changes/format.ts";
import { type FeedFilter, type FeedRow, feedQuery } from "../../changes/sql/change-feed.ts";
import type { Sql } from "../../db/connect.ts";
import { CsvWriter, EXCEL_HU } from "../../formats/write/csv-writer.ts";
import { XlsxWriter } from "../../formats/write/xlsx-writer.ts";
import { wordOf } from "../../i18n/words.ts";
import { cellsOf } from "./changes-cells.ts";
import {
  columnNames,
  type DownloadColumn,
  type DownloadWords,
  downloadSheet,
  yesNo,
} from "./download-audience.ts";

const CURSOR_ROWS = 500;

const COLUMNS: readonly DownloadColumn[] = [
  { key: "change_date", type: "date", width: 12 },
  { key: "tax_id", type: "text", width: 10 },
  { key: "business_name", type: "text", width: 40 },
  { key: "lists", type: "text", width: 20 },
  { key: "heading", type: "text", width: 18 },
  { key: "old_value", type: "text", width: 40 },
  { key: "new_value", type: "text", width: 40 },
  { key: "order_ambiguous", type: "text", width: 10 },
];

function cells(r: FeedRow, words: DownloadWords): string[] {
  const person = words.audience === "person";
  const values = person ? cellsOf(words.i18n, r) : feedCells(r);
  return [
    r.changeDate,
    r.taxId,
    r.businessName ?? "",
    r.listNames.join(", "),
    person ? wordOf(words.i18n, "heading", r.heading) : r.heading,
    values.before,
    values.after,
    yesNo(words, r.orderAmbiguous),
  ];
}

/** Writes the feed as CSV to `out` (not ended: the caller ends it). Returns the rows written. */
export async function writeChangesCsv(
  sql: Sql,
  filter: FeedFilter,
  out: Writable,
  words: DownloadWords,
): Promise<number> {
  const csv = new CsvWriter(out, EXCEL_HU);
  await csv.row(columnNames("changes", COLUMNS, words));
  let count = 0;
  for await (const rows of feedQuery(sql, filter).cursor(CURSOR_ROWS)) {
    for (const r of rows) await csv.row(cells(r, words));
    count += rows.length;
  }
  await csv.flush();
  return count;
}

/** Writes the feed as an .xlsx workbook to `out` and ends it. Returns the rows written. */
export async function writeChangesXlsx(
  sql: Sql,
  filter: FeedFilter,
  out: Writable,
  words: DownloadWords,
): Promise<number> {
  const book = new XlsxWriter(out);
  const sheet = downloadSheet(book, "changes", COLUMNS, words);
  let count = 0;
  for await (const rows of feedQuery(sql, filter).cursor(CURSOR_ROWS)) {
    for (const r of rows) sheet.row(cells(r, words));
    count += rows.length;
    // A reader that takes the file slowly holds the cursor back, not the workbook in memory.
    await sheet.drained();
  }
  sheet.end();
  await book.end();
  return count;
}
