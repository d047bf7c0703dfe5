/**
 * The records of a payment file after its header, read as a stream: bytes decoded (and checked,
 * for UTF-8), title and header lines dropped, fields split by csv-parse, each record numbered by
 * the line it starts on.
 */
import { createReadStream } from "node:fs";
import { pipeline, type Readable, Transform, type TransformCallback } from "node:stream";
import { CsvError, parse } from "csv-parse";
import type { FileProblem } from "../batch-row.ts";
import { decoderFor, UndecodableLineError } from "./encoding.ts";

const READ_BYTES = 64 * 1024;

/**
 * What a wrongly chosen encoding leaves in text: U+FFFD, which iconv-lite writes for a byte its
 * encoding does not define, and C1 control codes, which is what ISO-8859-2 makes of the letters
 * Windows-1250 keeps in 0x80-0x9F. UTF-8 is checked byte by byte before (encoding.ts).
 */
const UNDECODED = /[\u0080-\u009f\uFFFD]/;

/** Turns every CR of a stream of bytes or text into LF (for files whose lines end in a lone CR). */
class CrToLf extends Transform {
  constructor() {
    super({ decodeStrings: false });
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
    super({ decodeStrings: false });
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

export interface NumberedRecord {
  fields: string[];
  line: number;
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

/** Resolves when `stream` has data to read or has ended; rejects with its error. */
function readable(stream: Readable): Promise<void> {
  if (stream.errored) return Promise.reject(stream.errored);
  return new Promise((resolve, reject) => {
    const settle = (error?: Error) => {
      stream.off("readable", settle);
      stream.off("end", settle);
      stream.off("error", settle);
      if (error) reject(error);
      else resolve();
    };
    stream.on("readable", settle);
    stream.on("end", settle);
    stream.on("error", settle);
  });
}

/**
 * The records after the header, each with the line it starts on, in the batches the parser has
 * ready (reading them synchronously keeps the per-record cost of async iteration away). Lines are
 * counted here rather than with csv-parse's `info`, which copies its state for every record: each
 * record is one line plus the line breaks inside its quoted fields, and a blank line comes as a
 * record of one empty field.
 */
export async function* recordsOf(source: Source): AsyncGenerator<NumberedRecord[]> {
  const parser = parse({
    delimiter: source.delimiter,
    relax_column_count: true,
    relax_quotes: true,
    trim: true,
  });
  // A CR is one byte in UTF-8 and the 8-bit encodings, so it is turned into LF before UTF-8 is
  // checked line by line; in UTF-16 a 0x0D byte can be half of another letter, so there after decoding.
  const bytesFirst = source.crOnly && !source.encoding.startsWith("utf-16");
  const stages: Transform[] = [
    ...(bytesFirst ? [new CrToLf()] : []),
    decoderFor(source.encoding),
    ...(source.crOnly && !bytesFirst ? [new CrToLf()] : []),
    new LineSkipper(source.skip),
  ];
  pipeline([createReadStream(source.path, { highWaterMark: READ_BYTES }), ...stages, parser], () => {});
  let line = source.skip;
  const checked = source.encoding !== "utf-8";
  try {
    for (;;) {
      const batch: NumberedRecord[] = [];
      for (let fields = parser.read() as string[] | null; fields !== null; fields = parser.read()) {
        const start = line + 1;
        let blank = true;
        for (const field of fields) {
          if (field !== "") blank = false;
          if (field.includes("\n")) line += field.split("\n").length - 1;
          if (checked && UNDECODED.test(field)) throw new UndecodableLineError(start, source.encoding);
        }
        line++;
        if (!blank) batch.push({ fields, line: start });
      }
      if (batch.length > 0) yield batch;
      if (parser.readableEnded) return;
      await readable(parser);
      if (parser.readableEnded && parser.readableLength === 0) return;
    }
  } finally {
    // A reader that stops early (a consumer leaving its loop) closes the file with the pipeline.
    if (!parser.readableEnded) parser.destroy();
  }
}

export function problemOfError(error: unknown, skip: number): FileProblem {
  if (error instanceof UndecodableLineError) return { line: error.line, message: error.message };
  if (error instanceof CsvError) {
    const lines = (error as CsvError & { lines?: number }).lines ?? 1;
    return { line: skip + lines, message: `the file cannot be read as CSV: ${error.message}` };
  }
  throw error;
}
