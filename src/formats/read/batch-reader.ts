/**
 * Opening a payment file as people have it (bank and ERP exports, Excel's text files) and
 * streaming its rows. The file is read once, as a stream so memory stays flat at any size: the
 * encoding detected, the header found and every row validated, the good rows spooled to a
 * temporary file (row-spool.ts) that `chunks()` gives back for the check only when nothing was wrong.
 */
import { stat } from "node:fs/promises";
import { UsageError } from "../../errors.ts";
import type { FileProblem, PaymentRow } from "../batch-row.ts";
import { readCurrency } from "./amounts.ts";
import type { ColumnMapping } from "./columns.ts";
import { encodingOf, readSample } from "./detect-file.ts";
import { decodeSample, encodingOption } from "./encoding.ts";
import { findHeaderLine } from "./header.ts";
import { MAX_CHUNK_TEXT, textOfFields } from "./limits.ts";
import { problemOfError, recordsOf, type Source } from "./records.ts";
import { detachedRow, RowSpool } from "./row-spool.ts";
import { type RowPlan, readRow } from "./rows.ts";

export { type ColumnMapping, parseColumnsOption } from "./columns.ts";

export interface ReadOptions {
  /** --encoding: an encoding name iconv-lite knows; undefined, "" or "auto" = detect. */
  encoding?: string;
  /** --columns "field=Header,field=Header" already parsed by parseColumnsOption. */
  columns?: ColumnMapping;
  /** Currency for rows that give none (--currency, default "HUF"). */
  currency: string;
}

export interface BatchLayout {
  /** What was used, e.g. "windows-1250", "utf-8", "utf-16le". */
  encoding: string;
  /** False when --encoding said. */
  encodingDetected: boolean;
  /** Set when the content gave no clear sign and the Hungarian default (Windows-1250) was taken. */
  encodingNote: string | null;
  /** ";", ",", "\t" */
  delimiter: string;
  /** 1-based line of the header (title lines may stand above it). */
  headerLine: number;
  /** Field -> header as found in the file. */
  columns: ColumnMapping;
  /** Headers not used. */
  ignored: string[];
}

export type OpenedBatch =
  | { ok: true; layout: BatchLayout; rowCount: number; chunks(size: number): AsyncIterable<PaymentRow[]> }
  | { ok: false; problems: FileProblem[] };

/**
 * The first good rows handed out while the rest is still being validated, `size` at a time (fewer
 * when they hold MAX_CHUNK_TEXT) and at most `count` times, so the check can read what it needs of them from the database meanwhile.
 */
export interface EarlyRows {
  size: number;
  count: number;
  take(rows: PaymentRow[]): void;
}

function rowText(r: PaymentRow): number {
  return textOfFields([r.taxId, r.bankAccount, r.amountRaw, r.reference, r.name]);
}

/** Problems listed before the rest are only counted. */
export const MAX_PROBLEMS = 50;

/**
 * Reads the whole file once: the number of rows, or the problems (at most MAX_PROBLEMS, then a
 * count). Good rows go to `spool` until the first problem (after it the spool is of no use).
 */
async function validate(
  source: Source,
  plan: RowPlan,
  spool: RowSpool,
  early: EarlyRows | undefined,
): Promise<{ rowCount: number; problems: FileProblem[] }> {
  const problems: FileProblem[] = [];
  let more = 0;
  let firstMore = 0;
  let rowCount = 0;
  let given = 0;
  // The early rows as the spool gives rows back: they hold no view of the file's decoded text.
  let group: PaymentRow[] = [];
  let groupText = 0;
  const note = (problem: FileProblem) => {
    if (problems.length < MAX_PROBLEMS) problems.push(problem);
    else if (more++ === 0) firstMore = problem.line;
  };
  try {
    for await (const batch of recordsOf(source)) {
      for (const { fields, line, oddSpaces } of batch) {
        const reading = readRow(fields, line, plan, oddSpaces);
        if (!reading.ok) note(reading.problem);
        else {
          rowCount++;
          if (problems.length > 0) continue;
          spool.add(reading.row);
          if (early && given < early.count) {
            const row = detachedRow(reading.row);
            group.push(row);
            groupText += rowText(row);
            if (group.length >= early.size || groupText >= MAX_CHUNK_TEXT) {
              early.take(group);
              group = [];
              groupText = 0;
              given++;
            }
          }
        }
      }
      if (problems.length === 0) await spool.flush();
    }
  } catch (error) {
    note(problemOfError(error));
  }
  if (more > 0) problems.push({ line: firstMore, message: `and ${more} more problem(s) from this line on` });
  return { rowCount, problems };
}

/**
 * Opens a payment file: encoding, header and every row checked. A UsageError for an unknown
 * --encoding or --currency; the file's own faults come back as problems, each naming its line.
 * `early` gets the first rows before the file is known to be good (to read, never to judge).
 */
export async function openBatch(path: string, options: ReadOptions, early?: EarlyRows): Promise<OpenedBatch> {
  const asked = options.encoding?.trim() ?? "";
  const given = asked === "" || asked.toLowerCase() === "auto" ? undefined : encodingOption(asked);
  const currency = readCurrency(options.currency);
  if (!currency.ok) throw new UsageError(`--currency: ${currency.problem}`);
  const opened = await stat(path);
  const { sample, complete } = await readSample(path);
  if (sample.length === 0)
    return { ok: false, problems: [{ line: 1, message: "the file is empty: expected a header row" }] };
  const detected = await encodingOf(path, given, { sample, complete });
  let text = decodeSample(sample, detected.encoding).replace(/^\uFEFF/, "");
  const crOnly = text.includes("\r") && !text.includes("\n");
  if (!complete) text = text.slice(0, text.lastIndexOf(crOnly ? "\r" : "\n") + 1);
  const found = findHeaderLine(text, options.columns ?? {});
  if (!found.ok) return { ok: false, problems: found.problems };
  const { header } = found;
  const source: Source = {
    path,
    encoding: detected.encoding,
    delimiter: header.delimiter,
    skip: header.line,
    crOnly,
  };
  const plan: RowPlan = { layout: header.layout, width: header.headers.length, currency: currency.code };
  const spool = await RowSpool.create();
  let validated: { rowCount: number; problems: FileProblem[] };
  try {
    validated = await validate(source, plan, spool, early);
    await spool.close();
  } catch (error) {
    await spool.discard();
    throw error;
  }
  const { rowCount, problems } = validated;
  if (problems.length > 0 || rowCount === 0) await spool.discard();
  if (problems.length > 0) return { ok: false, problems };
  if (rowCount === 0)
    return { ok: false, problems: [{ line: header.line, message: "the file has no payment rows" }] };
  return {
    ok: true,
    layout: {
      encoding: detected.encoding,
      encodingDetected: given === undefined,
      encodingNote: detected.note,
      delimiter: header.delimiter,
      headerLine: header.line,
      columns: header.layout.columns,
      ignored: header.layout.ignored,
    },
    rowCount,
    chunks: (size) => chunksOf(path, spool, size, `${opened.size}/${opened.mtimeMs}`),
  };
}

/**
 * The validated rows, `size` at a time, from the spool (once). A file changed since it was
 * validated is refused all the same: what it holds now is no longer what was validated.
 */
async function* chunksOf(
  file: string,
  spool: RowSpool,
  size: number,
  version: string,
): AsyncGenerator<PaymentRow[]> {
  const now = await stat(file).catch(async (error) => {
    await spool.discard();
    throw error;
  });
  if (`${now.size}/${now.mtimeMs}` !== version) {
    await spool.discard();
    throw new Error(`${file} changed after it was read`);
  }
  yield* spool.chunks(size);
}
