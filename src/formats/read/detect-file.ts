/**
 * Detecting a payment file's encoding from the file itself. The first 64 KiB usually tell; when
 * they are plain ASCII, or 8-bit text with only letters Windows-1250 and ISO-8859-2 share (the
 * Hungarian ones), the file is scanned for the first byte that tells more and the detector judges
 * the 64 KiB from that line on, so a name far down the file is not read in the wrong encoding.
 */
import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { type DetectedEncoding, detectEncoding, isEightBit, sampleIsSilent } from "./encoding.ts";

/** How much is judged: the start of the file, and the window where it first tells more. */
export const SAMPLE_BYTES = 64 * 1024;

export interface Sample {
  sample: Buffer;
  /** The sample reaches the end of the file. */
  complete: boolean;
}

export async function readSample(path: string): Promise<Sample> {
  const file = await open(path, "r");
  try {
    const buffer = Buffer.alloc(SAMPLE_BYTES + 1);
    const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
    return {
      sample: buffer.subarray(0, Math.min(bytesRead, SAMPLE_BYTES)),
      complete: bytesRead <= SAMPLE_BYTES,
    };
  } finally {
    await file.close();
  }
}

/**
 * The 64 KiB from the start of the line holding the first byte `telling` matches (a pattern over
 * the bytes read as Latin-1, one character a byte: far faster than a loop); undefined when none does.
 */
async function windowFrom(path: string, telling: RegExp): Promise<Sample | undefined> {
  const stream = createReadStream(path, { highWaterMark: SAMPLE_BYTES });
  const parts: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (parts.length === 0) {
        const first = chunk.toString("latin1").search(telling);
        if (first < 0) continue;
        const part = chunk.subarray(chunk.lastIndexOf(0x0a, first) + 1);
        parts.push(part);
        length = part.length;
      } else {
        parts.push(chunk);
        length += chunk.length;
      }
      if (length > SAMPLE_BYTES)
        return { sample: Buffer.concat(parts).subarray(0, SAMPLE_BYTES), complete: false };
    }
  } finally {
    stream.destroy();
  }
  return parts.length === 0 ? undefined : { sample: Buffer.concat(parts), complete: true };
}

const ABOVE_ASCII = /[\x80-\xff]/;
/** The bytes Windows-1250 and ISO-8859-2 read differently (encoding.ts, differsBetween8Bit). */
const DIFFERING = /[\x80-\xbf]/;

/** The encoding --encoding gives (already checked), else the one the content shows. */
export async function encodingOf(
  path: string,
  given: string | undefined,
  start: Sample,
): Promise<DetectedEncoding> {
  if (given !== undefined) return { encoding: given, note: null };
  let detected = detectEncoding(start.sample, start.complete);
  if (start.complete || !sampleIsSilent(start.sample, detected.encoding)) return detected;
  let judged = start;
  if (detected.encoding === "utf-8") {
    const window = await windowFrom(path, ABOVE_ASCII);
    if (window === undefined) return detected;
    detected = detectEncoding(window.sample, window.complete);
    judged = window;
  }
  if (judged.complete || !sampleIsSilent(judged.sample, detected.encoding)) return detected;
  const window = await windowFrom(path, DIFFERING);
  if (window === undefined) return detected;
  const again = detectEncoding(window.sample, window.complete);
  return isEightBit(again.encoding) ? again : detected;
}
