/**
 * A recorded payment batch as its readers take it (the console's pages, the evidence report): one
 * shape and one column list, so the two never drift apart.
 */
import type { Fragment, Sql } from "../../db/connect.ts";

export interface BatchTotal {
  currency: string;
  amount: string;
  rows: number;
  held: string;
  held_rows: number;
}

export interface PaymentBatchRow {
  id: string;
  checkedAt: Date;
  finishedAt: Date | null;
  checkedBy: string | null;
  source: string;
  fileName: string | null;
  /** The file's size and SHA-256 as given or uploaded; null on batches recorded before migration 0051. */
  fileSize: number | null;
  fileSha256: string | null;
  encoding: string | null;
  delimiter: string | null;
  checkedOn: string | null;
  holdDays: number | null;
  rowCount: number;
  heldCount: number;
  totals: BatchTotal[];
  /** The batch this one checked again ("Check again"), or null for a file's own check. */
  recheckedFrom: string | null;
  /** Field -> header read for it; null on batches recorded before migration 0050. */
  readColumns: Partial<Record<string, string>> | null;
  ignoredColumns: string[] | null;
  columnsChosenBy: string | null;
  columnsChosenAt: Date | null;
  columnsOffer: string | null;
}

/** The columns of payment_batches, named as PaymentBatchRow reads them. */
export function batchColumns(sql: Sql): Fragment {
  return sql`
    id, checked_at as "checkedAt", finished_at as "finishedAt", checked_by as "checkedBy", source,
    file_name as "fileName", file_size::float8 as "fileSize", file_sha256 as "fileSha256",
    encoding, delimiter, to_char(checked_on, 'YYYY-MM-DD') as "checkedOn",
    hold_days as "holdDays", row_count as "rowCount", held_count as "heldCount", totals,
    rechecked_from as "recheckedFrom",
    read_columns as "readColumns", ignored_columns as "ignoredColumns", columns_chosen_by as "columnsChosenBy",
    columns_chosen_at as "columnsChosenAt", columns_offer::text as "columnsOffer"`;
}
