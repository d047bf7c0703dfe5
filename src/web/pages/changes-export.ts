/**
 * The change feed's downloads, written as a stream: the feed's statement is read through a
 * cursor a few hundred rows at a time and each batch written out before the next is read, so a
 * long period never sits in memory. CSV is `;` with a BOM and a decimal comma (Hungarian Excel
 * opens it in columns), every text cell neutralised against formulas; the workbook has one row
 * per changed heading with the day as a date. Values read as on the page (accounts as numbers,
 * status in words).
 */
import type { Writable } from "node:stream";
import { feedCells } from "../../changes/format.ts";
import { type FeedFilter, type FeedRow, feedQuery } from "../../changes/sql/change-feed.ts";
import type { Sql } from "../../db/connect.ts";
import { CsvWriter, EXCEL_HU } from "../../formats/write/csv-writer.ts";
import { XlsxWriter } from "../../formats/write/xlsx-writer.ts";

const CURSOR_ROWS = 500;

const HEADERS = [
  "change_date",
  "tax_id",
  "business_name",
  "lists",
  "heading",
  "old_value",
  "new_value",
  "order_ambiguous",
] as const;

function cells(r: FeedRow): string[] {
  const values = feedCells(r);
  return [
    r.changeDate,
    r.taxId,
    r.businessName ?? "",
    r.listNames.join(", "),
    r.heading,
    values.before,
    values.after,
    r.orderAmbiguous ? "yes" : "no",
  ];
}

/** Writes the feed as CSV to `out` (not ended: the caller ends it). Returns the rows written. */
export async function writeChangesCsv(sql: Sql, filter: FeedFilter, out: Writable): Promise<number> {
  const csv = new CsvWriter(out, EXCEL_HU);
  await csv.row(HEADERS);
  let count = 0;
  for await (const rows of feedQuery(sql, filter).cursor(CURSOR_ROWS)) {
    for (const r of rows) await csv.row(cells(r));
    count += rows.length;
  }
  await csv.flush();
  return count;
}

/** Writes the feed as an .xlsx workbook to `out` and ends it. Returns the rows written. */
export async function writeChangesXlsx(sql: Sql, filter: FeedFilter, out: Writable): Promise<number> {
  const book = new XlsxWriter(out);
  const sheet = book.sheet("changes", [
    { header: "change_date", type: "date", width: 12, numFmt: "yyyy-mm-dd" },
    { header: "tax_id", type: "text", width: 10 },
    { header: "business_name", type: "text", width: 40 },
    { header: "lists", type: "text", width: 20 },
    { header: "heading", type: "text", width: 18 },
    { header: "old_value", type: "text", width: 40 },
    { header: "new_value", type: "text", width: 40 },
    { header: "order_ambiguous", type: "text", width: 10 },
  ]);
  let count = 0;
  for await (const rows of feedQuery(sql, filter).cursor(CURSOR_ROWS)) {
    for (const r of rows) sheet.row(cells(r));
    count += rows.length;
    // A reader that takes the file slowly holds the cursor back, not the workbook in memory.
    await sheet.drained();
  }
  sheet.end();
  await book.end();
  return count;
}
