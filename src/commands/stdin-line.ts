/**
 * One line read from standard input without taking more than a bound: the stream reads the
 * descriptor up to `maxBytes` in all (never a buffer's worth past it), so a command fed an
 * endless stream stops after a few kilobytes instead of holding it all in memory.
 */
import { createReadStream } from "node:fs";

export type BoundedLine = { ok: true; line: string } | { ok: false; tooLong: true };

/**
 * The first line of standard input, without its line end (LF or CRLF); the whole input when it
 * has no line end. `{ ok: false }` when `maxBytes` were read without a line end and more may follow.
 */
export async function readStdinLine(maxBytes: number): Promise<BoundedLine> {
  const input = createReadStream("", { fd: 0, autoClose: false, end: maxBytes - 1, highWaterMark: maxBytes });
  const chunks: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      const at = chunk.indexOf(10);
      if (at >= 0) {
        chunks.push(chunk.subarray(0, at));
        return { ok: true, line: Buffer.concat(chunks).toString("utf8").replace(/\r$/, "") };
      }
      chunks.push(chunk);
      length += chunk.length;
    }
  } finally {
    input.destroy();
  }
  if (length >= maxBytes) return { ok: false, tooLong: true };
  return { ok: true, line: Buffer.concat(chunks).toString("utf8").replace(/\r$/, "") };
}
