/**
 * "Check again" (the console's button on a batch): the rows a batch stored are judged anew with
 * what regwatch knows today (a verification recorded since, a sync, an online read) into a new
 * batch linked to the old one (payment_batches.rechecked_from). The old batch keeps the verdicts
 * it gave, which is what the clerk acted on then.
 */
import type { Database } from "../db/connect.ts";
import type { PaymentRow } from "../formats/batch-row.ts";
import { readAmount, splitCurrency } from "../formats/read/amounts.ts";
import { MAX_CHUNK_TEXT } from "../formats/read/limits.ts";
import { type BatchCheckOptions, type BatchSummary, judgeRows, type RowSource } from "./pipeline.ts";
import { type StoredPaymentRow, storedBatchRows } from "./sql/payment-uploads.ts";

export interface StoredBatch {
  id: string;
  fileName: string | null;
  encoding: string | null;
  delimiter: string | null;
}

/** A formula guard (a leading apostrophe the store added) taken off again. */
function unguarded(text: string | null): string | null {
  return text?.startsWith("'") ? text.slice(1) : text;
}

/** A stored row as the reader gave it; an amount that could not be read is read again for its problem. */
export function rowOfStored(r: StoredPaymentRow): PaymentRow {
  let amountProblem: string | null = null;
  if (r.amount === null && r.amountRaw !== null) {
    const raw = unguarded(r.amountRaw)!;
    const reading = readAmount(splitCurrency(raw).text, r.currency ?? "HUF", raw);
    amountProblem = reading.kind === "amount" ? null : reading.problem;
  }
  return {
    line: r.line,
    taxId: unguarded(r.taxId),
    bankAccount: r.bankAccount,
    amount: r.amount,
    amountRaw: unguarded(r.amountRaw),
    amountProblem,
    currency: r.currency,
    reference: unguarded(r.reference),
    name: unguarded(r.name),
  };
}

export async function checkStoredBatch(
  db: Database,
  batch: StoredBatch,
  options: Omit<BatchCheckOptions, "read" | "record"> & { by: string },
): Promise<BatchSummary> {
  const source: RowSource = {
    layout: {
      encoding: batch.encoding ?? "utf-8",
      encodingDetected: false,
      encodingNote: null,
      delimiter: batch.delimiter ?? ";",
      headerLine: 1,
      columns: {},
      ignored: [],
    },
    chunks: async function* (size) {
      for await (const rows of storedBatchRows(db.sql, batch.id, size, MAX_CHUNK_TEXT))
        yield rows.map(rowOfStored);
    },
  };
  return judgeRows(
    db,
    source,
    {
      ...options,
      read: { currency: "HUF" },
      record: { by: options.by, source: "web", fileName: batch.fileName ?? batch.id },
      recheckedFrom: batch.id,
    },
    [],
  );
}
