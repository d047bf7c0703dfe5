/**
 * Which character encoding a payment file is written in, and decoding it as a stream. A byte
 * order mark decides at once (UTF-8, UTF-16 LE/BE); otherwise text that is valid UTF-8 is UTF-8,
 * and the rest is told apart by chardet among the two 8-bit encodings Hungarian exports use
 * (Windows-1250 and ISO-8859-2). A UTF-8 file is checked to its last byte: a line that is not
 * valid UTF-8 fails the file, naming the line, rather than turning letters into U+FFFD.
 */
import { isAscii, isUtf8 } from "node:buffer";
import { Transform, type TransformCallback } from "node:stream";
import type { Context } from "chardet/lib/encoding/index.js";
import { ISO_8859_2 } from "chardet/lib/encoding/sbcs.js";
import iconv from "iconv-lite";
import { UsageError } from "../../errors.ts";
import { MAX_PENDING_UTF8_BYTES, RecordTooLongError } from "./limits.ts";
import { SingleByteDecoder } from "./single-byte.ts";

export interface DetectedEncoding {
  encoding: string;
  /** Set when the content gave no clear sign and the Hungarian default was taken. */
  note: string | null;
}

/** The 8-bit encodings a detector's answer is accepted for (chardet's names, lower-cased). */
const ACCEPTED: Record<string, string> = {
  "windows-1250": "windows-1250",
  "iso-8859-2": "iso-8859-2",
};

export const DEFAULT_8BIT = "windows-1250";

/** Names people give for the encodings regwatch names in its output. */
const CANONICAL: Record<string, string> = {
  utf8: "utf-8",
  "utf-8": "utf-8",
  cp1250: "windows-1250",
  win1250: "windows-1250",
  "windows-1250": "windows-1250",
  latin2: "iso-8859-2",
  "iso-8859-2": "iso-8859-2",
  iso88592: "iso-8859-2",
  "utf-16le": "utf-16le",
  utf16le: "utf-16le",
  "utf-16be": "utf-16be",
  utf16be: "utf-16be",
};

/** The `--encoding` value as regwatch names it; a UsageError when iconv-lite does not know it. */
export function encodingOption(name: string): string {
  const lower = name.trim().toLowerCase();
  if (!iconv.encodingExists(lower)) {
    throw new UsageError(
      `--encoding: unknown encoding "${name}" (for example utf-8, windows-1250, iso-8859-2, utf-16le, utf-16be)`,
    );
  }
  return CANONICAL[lower] ?? lower;
}

function bomEncoding(sample: Buffer): string | undefined {
  if (sample[0] === 0xef && sample[1] === 0xbb && sample[2] === 0xbf) return "utf-8";
  if (sample[0] === 0xff && sample[1] === 0xfe) return "utf-16le";
  if (sample[0] === 0xfe && sample[1] === 0xff) return "utf-16be";
  return undefined;
}

/** UTF-16 without a byte order mark: mostly-Latin text has a zero byte in every other place. */
function unmarkedUtf16(sample: Buffer): string | undefined {
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < sample.length; i++) {
    if (sample[i] === 0) {
      if (i % 2 === 0) evenZeros++;
      else oddZeros++;
    }
  }
  const half = sample.length / 2;
  if (oddZeros > half * 0.3 && evenZeros < oddZeros / 10) return "utf-16le";
  if (evenZeros > half * 0.3 && oddZeros < evenZeros / 10) return "utf-16be";
  return undefined;
}

/** The bytes Windows-1250 and ISO-8859-2 read differently all lie in 0x80-0xBF. */
function differsBetween8Bit(byte: number): boolean {
  return byte >= 0x80 && byte <= 0xbf;
}

function hasDifferingByte(bytes: Uint8Array): boolean {
  for (const byte of bytes) if (differsBetween8Bit(byte)) return true;
  return false;
}

/** Whether a detected encoding is one of the two 8-bit ones. */
export function isEightBit(encoding: string): boolean {
  return encoding === "windows-1250" || encoding === "iso-8859-2";
}

/** Whether a sample tells nothing more: plain ASCII, or 8-bit text without a byte where the two differ. */
export function sampleIsSilent(sample: Uint8Array, encoding: string): boolean {
  if (encoding === "utf-8") return isAscii(sample);
  return isEightBit(encoding) && !hasDifferingByte(sample);
}

/** The sample without a UTF-8 character its end cuts in two (at most three bytes go). */
function withoutCutCharacter(sample: Buffer): Buffer {
  for (let back = 1; back <= Math.min(4, sample.length); back++) {
    const byte = sample[sample.length - back]!;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: look further back for the lead
    const needs = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needs > back ? sample.subarray(0, sample.length - back) : sample;
  }
  return sample;
}

const recogniser = new ISO_8859_2();

/**
 * chardet's judgement of `sample` as Central European 8-bit text: its ISO-8859-2 recogniser, the
 * only one of its recognisers that answers with a name ACCEPTED holds (Windows-1250 when bytes
 * 0x80-0x9F occur, else ISO-8859-2). Asked alone rather than through analyse(), which runs all 27
 * recognisers on the sample, the answer is the same (a test compares them) for a fifth of the
 * time: about 20 ms instead of 115 on 64 KiB, the largest part of opening a small batch. Null
 * when it sees no such text.
 */
function centralEuropean(sample: Uint8Array): { name: string; confidence: number } | null {
  const byteStats = new Array<number>(256).fill(0);
  for (const byte of sample) byteStats[byte]!++;
  let c1Bytes = false;
  for (let byte = 0x80; byte <= 0x9f && !c1Bytes; byte++) c1Bytes = byteStats[byte]! > 0;
  const context: Context = {
    byteStats,
    c1Bytes,
    rawInput: sample,
    rawLen: sample.length,
    inputBytes: sample,
    inputLen: sample.length,
  };
  const match = recogniser.match(context);
  return match !== null && match.confidence > 0 && ACCEPTED[match.name.toLowerCase()] !== undefined
    ? match
    : null;
}

/**
 * The encoding of a file from the first bytes of it. `complete` says the sample is the whole
 * file; otherwise it may end inside a character, which is then left out.
 */
export function detectEncoding(sample: Buffer, complete: boolean): DetectedEncoding {
  const marked = bomEncoding(sample) ?? unmarkedUtf16(sample);
  if (marked) return { encoding: marked, note: null };
  const judged = complete ? sample : withoutCutCharacter(sample);
  if (isUtf8(judged)) return { encoding: "utf-8", note: null };
  const best = centralEuropean(judged);
  if (best) {
    const encoding = ACCEPTED[best.name.toLowerCase()]!;
    // Without a byte where the two differ, both read the sample alike; chardet then says ISO-8859-2,
    // but Windows-1250 is what Hungarian exports are written in.
    return { encoding: hasDifferingByte(judged) ? encoding : DEFAULT_8BIT, note: null };
  }
  return {
    encoding: DEFAULT_8BIT,
    note: `the content gave no clear sign of its encoding: read as ${DEFAULT_8BIT}, the usual one of Hungarian exports (give --encoding if names look wrong)`,
  };
}

/** A line that cannot be decoded; `line` counts from 1, the file's first line. */
export class UndecodableLineError extends Error {
  readonly line: number;
  constructor(line: number, encoding: string) {
    super(`line ${line} cannot be read as ${encoding}: give --encoding with the file's encoding`);
    this.name = "UndecodableLineError";
    this.line = line;
  }
}

/**
 * Whole lines of bytes through, each checked to be valid UTF-8 (csv-parse decodes them itself);
 * a leading BOM is dropped. A line still without its end after MAX_PENDING_UTF8_BYTES is refused
 * there, so the bytes held back (and copied with each piece) stay bounded.
 */
class Utf8LineDecoder extends Transform {
  private carry: Buffer = Buffer.alloc(0);
  private linesBefore = 0;
  private first = true;

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    let bytes = this.carry.length > 0 ? Buffer.concat([this.carry, chunk]) : chunk;
    if (this.first && bytes.length >= 3) {
      this.first = false;
      if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
    }
    const cut = bytes.lastIndexOf(0x0a) + 1;
    if (bytes.length - cut > MAX_PENDING_UTF8_BYTES) {
      done(new RecordTooLongError(this.linesBefore + countNewlines(bytes.subarray(0, cut)) + 1, false));
      return;
    }
    this.carry = Buffer.from(bytes.subarray(cut));
    done(this.check(bytes.subarray(0, cut)));
  }

  override _flush(done: TransformCallback): void {
    done(this.check(this.carry));
  }

  private check(whole: Buffer): Error | null {
    if (whole.length === 0) return null;
    if (!isUtf8(whole)) return new UndecodableLineError(this.linesBefore + this.badLineIn(whole), "utf-8");
    this.linesBefore += countNewlines(whole);
    this.push(whole);
    return null;
  }

  /** 1-based index of the first invalid line; a newline byte never occurs inside a UTF-8 character. */
  private badLineIn(whole: Buffer): number {
    let start = 0;
    for (let index = 1; ; index++) {
      const end = whole.indexOf(0x0a, start);
      const line = whole.subarray(start, end < 0 ? whole.length : end);
      if (!isUtf8(line) || end < 0) return index;
      start = end + 1;
    }
  }
}

function countNewlines(bytes: Buffer): number {
  let count = 0;
  for (let at = bytes.indexOf(0x0a); at >= 0; at = bytes.indexOf(0x0a, at + 1)) count++;
  return count;
}

/**
 * Bytes to text with iconv-lite, the text passed on as strings: a stream that is not in object
 * mode would turn each string back into UTF-8 bytes for the next stage to decode again. In object
 * mode the buffer counts pieces (~128 KiB of text each), so it is kept at two.
 */
class TextDecoderStream extends Transform {
  private readonly decoder: ReturnType<typeof iconv.getDecoder>;
  /** The same decoding for a single-byte encoding (single-byte.ts): most files are Windows-1250. */
  private readonly singleByte: SingleByteDecoder | null;
  constructor(encoding: string) {
    super({ readableObjectMode: true, readableHighWaterMark: 2 });
    this.decoder = iconv.getDecoder(encoding);
    this.singleByte = SingleByteDecoder.of(this.decoder);
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    const text = this.singleByte ? this.singleByte.write(chunk) : this.decoder.write(chunk);
    done(null, text === "" ? undefined : text);
  }
  override _flush(done: TransformCallback): void {
    const rest = this.decoder.end();
    done(null, rest ? rest : undefined);
  }
}

/** A stream that turns the file's bytes into text (a BOM is dropped). */
export function decoderFor(encoding: string): Transform {
  if (encoding === "utf-8") return new Utf8LineDecoder();
  return new TextDecoderStream(encoding);
}

/** A whole buffer as text, for the sample the header is looked for in. */
export function decodeSample(sample: Buffer, encoding: string): string {
  return iconv.decode(sample, encoding);
}
