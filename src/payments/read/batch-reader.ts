/**
 * Opening a payment file as people have it (bank and ERP exports, Excel's text files) and
 * streaming its rows. The file is read twice, as a stream each time so memory stays flat at any
 * size: once to detect the encoding, find the header and validate every row, and, only when
 * nothing was wrong, again by `chunks()` for the check.
 */
import { stat } from "node:fs/promises";
import { UsageError } from "../../errors.ts";
import type { FileProblem, PaymentRow } from "../batch-row.ts";
import { readCurrency } from "./amounts.ts";
import type { ColumnMapping } from "./columns.ts";
import { encodingOf, readSample } from "./detect-file.ts";
import { decodeSample, encodingOption } from "./encoding.ts";
import { findHeaderLine } from "./header.ts";
import { problemOfError, recordsOf, type Source } from "./records.ts";
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

/** Problems listed before the rest are only counted. */
export const MAX_PROBLEMS = 50;

/** Reads the whole file once: the number of rows, or the problems (at most MAX_PROBLEMS, then a count). */
async function validate(
  source: Source,
  plan: RowPlan,
): Promise<{ rowCount: number; problems: FileProblem[] }> {
  const problems: FileProblem[] = [];
  let more = 0;
  let firstMore = 0;
  let rowCount = 0;
  const note = (problem: FileProblem) => {
    if (problems.length < MAX_PROBLEMS) problems.push(problem);
    else if (more++ === 0) firstMore = problem.line;
  };
  try {
    for await (const batch of recordsOf(source)) {
      for (const { fields, line } of batch) {
        const reading = readRow(fields, line, plan);
        if (reading.ok) rowCount++;
        else note(reading.problem);
      }
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
 */
export async function openBatch(path: string, options: ReadOptions): Promise<OpenedBatch> {
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
  const { rowCount, problems } = await validate(source, plan);
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
    chunks: (size) => chunksOf(source, plan, size, `${opened.size}/${opened.mtimeMs}`),
  };
}

/** The rows again, `size` at a time; the file must not have changed since it was validated. */
async function* chunksOf(
  source: Source,
  plan: RowPlan,
  size: number,
  version: string,
): AsyncGenerator<PaymentRow[]> {
  const now = await stat(source.path);
  if (`${now.size}/${now.mtimeMs}` !== version) throw new Error(`${source.path} changed after it was read`);
  let chunk: PaymentRow[] = [];
  for await (const batch of recordsOf(source)) {
    for (const { fields, line } of batch) {
      const reading = readRow(fields, line, plan);
      if (!reading.ok) throw new Error(`${source.path} changed after it was read (line ${line})`);
      chunk.push(reading.row);
      if (chunk.length >= size) {
        yield chunk;
        chunk = [];
      }
    }
  }
  if (chunk.length > 0) yield chunk;
}
