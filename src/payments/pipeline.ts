/**
 * A payment batch checked as a stream: the file is opened and validated (src/payments/read/),
 * its good rows spooled, then given back in chunks; each chunk is judged with its database reads batched
 * (src/payments/check-chunk.ts), recorded in one statement when asked, and handed to the sinks
 * (the command's outputs). Memory holds one chunk at a time, whatever the file's size. Used by
 * `payments check` and the web console's upload.
 */
import path from "node:path";
import type { Database } from "../db/connect.ts";
import type { FileProblem, PaymentRow } from "../formats/batch-row.ts";
import { type BatchLayout, openBatch, type ReadOptions } from "../formats/read/batch-reader.ts";
import { safeCell, safeCellOrNull } from "../formats/write/safe-cell.ts";
import { storedSaid } from "../said.ts";
import { redactSecrets } from "../secrets.ts";
import { checkChunk, createKnowledgeCache, type OnlineSession, warmKnowledge } from "./check-chunk.ts";
import type { StepVoice } from "./next-step.ts";
import { jsonTotals } from "./report-rows.ts";
import type { BatchSummary, RowSink } from "./sink.ts";
import { type PaymentCheckRecord, recordPaymentBatch } from "./sql/payment-checks.ts";
import { BatchTotals } from "./totals.ts";
import { type CheckedRow, PASSING, type Verdict } from "./verdicts.ts";

export type { BatchSummary, RowSink } from "./sink.ts";

export interface BatchCheckOptions {
  read: ReadOptions;
  holdDays: number;
  /** The day verdicts are given for, in the registry's time zone. */
  today: string;
  recheckDays: number;
  timeZone: string;
  /** REGWATCH_PAYMENT_ACCEPT_UNCONFIRMED: an account no source has shown passes with a warning. */
  acceptUnconfirmed?: boolean;
  /** startOnline(db, client) for --online; null checks with what the database knows. */
  online: OnlineSession | null;
  /** Keep the batch in payment_batches and payment_checks; null keeps nothing. */
  record: {
    by: string | null;
    source: "cli" | "web";
    fileName: string;
    /** The remembered column choice the file was read with: who made it and when. */
    columnsChosen?: { by: string; at: Date } | null;
    /** The held upload whose columns its uploader may still choose (held_uploads.id). */
    columnsOffer?: string | null;
    /** The file's size and SHA-256 as uploaded or given (the evidence report names them). */
    file?: { size: number; sha256: string } | null;
  } | null;
  /** Whose words the next steps are in: "console" for an upload (its buttons, not CLI flags). */
  voice?: StepVoice;
  /** Rows judged together (default 1,000: with the batch cache about as fast as 2,000-5,000, and 20-60 MB lower at the peak). */
  chunkSize?: number;
}

export type BatchCheckResult = { ok: false; problems: FileProblem[] } | { ok: true; summary: BatchSummary };

export const DEFAULT_CHUNK = 1000;
/** Chunks whose database reads start during validation (the first ones, where the cache is cold). */
const WARM_CHUNKS = 3;

/** A checked row as payment_checks keeps it: text a spreadsheet could run is neutralised. */
export function checkRecord(r: CheckedRow): PaymentCheckRecord {
  return {
    line: r.line,
    taxId: safeCellOrNull(r.taxId),
    bankAccount: r.account ?? safeCell(r.bankAccount),
    verdict: r.verdict,
    detail: r.detail === "" ? null : safeCell(redactSecrets(r.detail)),
    nextStep: r.nextStep === null ? null : safeCell(redactSecrets(r.nextStep)),
    amount: r.amount,
    currency: r.currency,
    reference: safeCellOrNull(r.reference),
    taxBase: r.taxBase,
    payeeFoundBy: r.payeeFoundBy,
    name: safeCellOrNull(r.name),
    registryName: safeCellOrNull(r.registryName),
    amountRaw: safeCellOrNull(r.amountRaw),
    verifiedBy: safeCellOrNull(r.verifiedBy),
    verifiedOn: r.verifiedOn,
    detailSaid:
      r.detailSaid.length === 0 ? null : redactSecrets(JSON.stringify(r.detailSaid.map(storedSaid))),
    nextStepSaid: r.nextStepSaid === null ? null : redactSecrets(JSON.stringify(storedSaid(r.nextStepSaid))),
  };
}

/**
 * Checks the batch in `file`. A file with problems is `{ ok: false }` and nothing is checked or
 * recorded; otherwise every row reaches every sink, and the summary each sink's end.
 */
export async function checkBatch(
  db: Database,
  file: string,
  options: BatchCheckOptions,
  sinks: readonly RowSink[],
): Promise<BatchCheckResult> {
  const { today, holdDays, recheckDays, timeZone, online } = options;
  const chunkSize = options.chunkSize ?? DEFAULT_CHUNK;
  // What one chunk read of a payee serves the later chunks that pay it again.
  const cache = createKnowledgeCache();
  // The first chunks' database reads run while the rest of the file is validated (the reads
  // otherwise left the process waiting before the first verdict); their failure is met again
  // by the check itself, and a file with problems is still judged nowhere.
  let warming: Promise<void> = Promise.resolve();
  const early = {
    size: chunkSize,
    count: WARM_CHUNKS,
    take: (rows: PaymentRow[]) => {
      warming = warming
        .then(() => warmKnowledge(db, rows, { today, holdDays, recheckDays, timeZone, online, cache }))
        .catch(() => {});
    },
  };
  const opened = await openBatch(file, options.read, early);
  await warming;
  if (!opened.ok) return { ok: false, problems: opened.problems };
  return { ok: true, summary: await judgeRows(db, opened, options, sinks, cache) };
}

/** Rows to judge as a batch: a file opened and validated, or the stored rows of an earlier batch. */
export interface RowSource {
  layout: BatchLayout;
  chunks(size: number): AsyncIterable<PaymentRow[]>;
}

/**
 * Judges every chunk of `opened`, records it when asked (in one transaction) and hands it to the
 * sinks; the summary each sink's end got.
 */
export async function judgeRows(
  db: Database,
  opened: RowSource,
  options: BatchCheckOptions & { recheckedFrom?: string },
  sinks: readonly RowSink[],
  cache = createKnowledgeCache(),
): Promise<BatchSummary> {
  const { today, holdDays, recheckDays, timeZone, online } = options;
  const chunkSize = options.chunkSize ?? DEFAULT_CHUNK;
  const { layout } = opened;
  // What is under way, for the failure path to wait for and stop (set as the chunks start).
  const running: { judging?: Promise<CheckedRow[] | null>; chunks?: AsyncIterator<PaymentRow[]> } = {};
  /** Judges every chunk, hands it to the sinks and, when recording, to `record`. */
  const judgeAll = async (record: ((rows: PaymentCheckRecord[]) => Promise<void>) | null) => {
    const counts: Partial<Record<Verdict, number>> = {};
    const totals = new BatchTotals();
    let rowCount = 0;
    let heldCount = 0;
    const rows = opened.chunks(chunkSize)[Symbol.asyncIterator]();
    running.chunks = rows;
    const judgeNext = async (): Promise<CheckedRow[] | null> => {
      const next = await rows.next();
      if (next.done) return null;
      return checkChunk(db, next.value, {
        today,
        holdDays,
        recheckDays,
        timeZone,
        online,
        cache,
        acceptUnconfirmed: options.acceptUnconfirmed ?? false,
        voice: options.voice ?? "cli",
      });
    };
    // One chunk ahead: while a chunk is recorded and written out, the next one is read and its
    // database reads run. Chunks are still judged one after another (an --online session asks
    // each question once), and at most two are in memory.
    let judging = judgeNext();
    running.judging = judging;
    for (let checked = await judging; checked !== null; checked = await judging) {
      judging = judgeNext();
      running.judging = judging;
      // A failure of the chunk ahead surfaces when it is awaited; until then it must not go unhandled.
      judging.catch(() => {});
      for (const r of checked) {
        counts[r.verdict] = (counts[r.verdict] ?? 0) + 1;
        if (!PASSING.has(r.verdict)) heldCount++;
        totals.add(r);
      }
      rowCount += checked.length;
      const recording = record ? record(checked.map(checkRecord)) : null;
      recording?.catch(() => {});
      for (const sink of sinks) await sink.rows(checked);
      await recording;
    }
    const summary: BatchSummary = {
      rowCount,
      counts,
      totals: totals.list(),
      heldCount,
      layout,
      today,
      holdDays,
      online: online && {
        asked: online.asked,
        notChecked: online.notChecked,
        quotaMessage: online.quotaMessage,
      },
      batchId: null,
    };
    return summary;
  };
  try {
    // A recorded batch is written in one transaction: a check that fails or is cut short on any
    // path (a database error, a sink that fails, the process killed) leaves no batch behind.
    const summary = options.record
      ? await recordPaymentBatch(
          db.sql,
          {
            checkedBy: options.record.by === null ? null : safeCell(options.record.by),
            source: options.record.source,
            fileName: safeCell(path.basename(options.record.fileName)),
            encoding: layout.encoding,
            delimiter: layout.delimiter,
            checkedOn: today,
            holdDays,
            recheckedFrom: options.recheckedFrom ?? null,
            readColumns: Object.keys(layout.columns).length > 0 ? layout.columns : null,
            ignoredColumns: layout.ignored,
            columnsChosen: options.record.columnsChosen ?? null,
            columnsOffer: options.record.columnsOffer ?? null,
            file: options.record.file ?? null,
          },
          async (batch) => {
            const judged = await judgeAll(batch.insert);
            const end = {
              rowCount: judged.rowCount,
              heldCount: judged.heldCount,
              totals: jsonTotals(judged),
            };
            return { value: { ...judged, batchId: batch.id }, end };
          },
        )
      : await judgeAll(null);
    for (const sink of sinks) await sink.end(summary);
    return summary;
  } catch (error) {
    // The chunk being judged ahead finishes (or fails) before the caller closes what it uses.
    await running.judging?.catch(() => {});
    // Stopping the rows removes their spool.
    await running.chunks?.return?.()?.catch(() => {});
    await Promise.all(sinks.map((s) => s.abort?.().catch(() => {})));
    throw error;
  }
}
