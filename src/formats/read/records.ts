/**
 * The records of a payment file after its header, read as a stream: bytes decoded (and checked,
 * for UTF-8), title and header lines dropped, cut into records (record-splitter.ts), each numbered
 * by the line it starts on.
 */
import { createReadStream } from "node:fs";
import { pipeline, Transform, type TransformCallback } from "node:stream";
import type { FileProblem } from "../batch-row.ts";
import { decoderFor, UndecodableLineError } from "./encoding.ts";
import { NulCharacterError, RecordTooLongError } from "./limits.ts";
import { CsvLineError, type NumberedRecord, RecordSplitter, UnclosedQuoteError } from "./record-splitter.ts";

export type { NumberedRecord } from "./record-splitter.ts";

/**
 * Bytes read at a time: 32 KiB decodes to at most 64 KiB of UTF-16, under V8's bound for the young
 * generation, so pieces never become large objects of the old one (docs/benchmarks.md).
 */
const READ_BYTES = 32 * 1024;

/** Turns every CR of a stream of bytes or text into LF (for files whose lines end in a lone CR). */
class CrToLf extends Transform {
  constructor() {
    super({ decodeStrings: false, readableObjectMode: true, writableObjectMode: true, highWaterMark: 2 });
  }
  override _transform(chunk: Buffer | string, _enc: BufferEncoding, done: TransformCallback): void {
    if (typeof chunk === "string") {
      done(null, chunk.replaceAll("\r", "\n"));
      return;
    }
    const copy = Buffer.from(chunk);
    for (let at = copy.indexOf(0x0d); at >= 0; at = copy.indexOf(0x0d, at + 1)) copy[at] = 0x0a;
    done(null, copy);
  }
}

/** Drops the first `count` lines of a stream of bytes or text. */
class LineSkipper extends Transform {
  private left: number;
  constructor(count: number) {
    super({ decodeStrings: false, readableObjectMode: true, writableObjectMode: true, highWaterMark: 2 });
    this.left = count;
  }
  override _transform(chunk: Buffer | string, _enc: BufferEncoding, done: TransformCallback): void {
    let rest = chunk;
    while (this.left > 0 && rest.length > 0) {
      const at = typeof rest === "string" ? rest.indexOf("\n") : rest.indexOf(0x0a);
      if (at < 0) {
        done();
        return;
      }
      rest = rest.slice(at + 1);
      this.left--;
    }
    done(null, rest.length > 0 ? rest : undefined);
  }
}

export interface Source {
  path: string;
  encoding: string;
  delimiter: string;
  /** Lines before the first data line (title lines and the header). */
  skip: number;
  /** Lines end in a lone CR (Excel's "CSV (Macintosh)"): made LF before anything counts lines. */
  crOnly: boolean;
}

/**
 * The records after the header, each with the line it starts on, in the batches one piece of
 * decoded text gives (reading them synchronously keeps the per-record cost of async iteration
 * away). Blank records are counted as lines but not given out.
 */
export async function* recordsOf(source: Source): AsyncGenerator<NumberedRecord[]> {
  // A CR is one byte in UTF-8 and the 8-bit encodings, so it is turned into LF before UTF-8 is
  // checked line by line; in UTF-16 a 0x0D byte can be half of another letter, so there after decoding.
  const bytesFirst = source.crOnly && !source.encoding.startsWith("utf-16");
  const stages: Transform[] = [
    ...(bytesFirst ? [new CrToLf()] : []),
    decoderFor(source.encoding),
    ...(source.crOnly && !bytesFirst ? [new CrToLf()] : []),
  ];
  const text = new LineSkipper(source.skip);
  pipeline([createReadStream(source.path, { highWaterMark: READ_BYTES }), ...stages, text], () => {});
  const checked = source.encoding === "utf-8" ? false : { encoding: source.encoding };
  const splitter = new RecordSplitter(source.delimiter, source.skip, checked);
  try {
    // The UTF-8 decoder passes whole lines of checked bytes, so no character is cut in two here.
    for await (const piece of text) {
      const batch = splitter.push(typeof piece === "string" ? piece : piece.toString("utf8"));
      if (batch.length > 0) yield batch;
    }
    const rest = splitter.push("", true);
    if (rest.length > 0) yield rest;
  } finally {
    // A reader that stops early (a consumer leaving its loop) closes the file with the pipeline.
    if (!text.destroyed) text.destroy();
  }
}

export function problemOfError(error: unknown): FileProblem {
  if (
    error instanceof UndecodableLineError ||
    error instanceof UnclosedQuoteError ||
    error instanceof CsvLineError ||
    error instanceof RecordTooLongError ||
    error instanceof NulCharacterError
  )
    return { line: error.line, message: error.message };
  throw error;
}
