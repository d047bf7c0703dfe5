/**
 * What a checked batch is written to, chunk by chunk: the command's outputs (text, JSON, CSV,
 * XLSX) and anything else that consumes verdicts (the web console reads the recorded rows). A
 * sink gets the rows of each chunk in file order as they are judged, then the summary once.
 */
import type { BatchLayout } from "../formats/read/batch-reader.ts";
import type { CurrencyTotal } from "./totals.ts";
import type { CheckedRow, Verdict } from "./verdicts.ts";

export interface BatchSummary {
  rowCount: number;
  /** Rows per verdict; verdicts no row has are absent. */
  counts: Partial<Record<Verdict, number>>;
  totals: CurrencyTotal[];
  /** Rows whose verdict holds the payment. */
  heldCount: number;
  layout: BatchLayout;
  /** Day the verdicts are for, and the hold period used. */
  today: string;
  holdDays: number;
  /** What --online asked; null without it. */
  online: { asked: number; notChecked: number; quotaMessage: string | null } | null;
  /** The recorded batch (payment_batches.id); null without recording. */
  batchId: string | null;
}

export interface RowSink {
  rows(rows: readonly CheckedRow[]): Promise<void>;
  end(summary: BatchSummary): Promise<void>;
  /** Frees what the sink holds when the check stops early (temporary files); optional. */
  abort?(): Promise<void>;
}
