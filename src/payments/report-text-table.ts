/**
 * The text output's table read back from its spool and padded as bytes: the spool holds UTF-8
 * lines of tab-separated cells, none with a tab or line break inside (cell() escapes them), so a
 * line is copied byte by byte, each tab becoming the padding its column needs. Decoding the
 * spool to strings, splitting and encoding the padded lines again cost several times as much.
 */
import { closeSync, openSync, readSync } from "node:fs";
import type { Writable } from "node:stream";

const TAB = 0x09;
const LF = 0x0a;
const SPACE = 0x20;
/** Bytes gathered before they are written out. */
const WRITE_AT = 64 * 1024;
/**
 * The spool is read in pieces this large, into one buffer reused for the whole file: a buffer per
 * piece (as a read stream makes) is memory outside the heap that waits for a collection to be
 * given back: a batch's table runs to tens of megabytes. The reads are synchronous: the file is
 * our own, just written (the page cache has it), and the table is all the process does by then;
 * through the thread pool each read was a round trip it only waited for (about 80 ms idle on
 * 200,000 rows).
 */
const SPOOL_READ = 256 * 1024;

/** Writes `bytes` and waits until `out` has taken them (so their buffer may be used again). */
function writeOut(out: Writable, bytes: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    out.write(bytes, (error) => (error ? reject(error) : resolve()));
  });
}

/**
 * The bytes of `file` in pieces ending at a line feed (the last one as it ends), each a view of
 * one buffer that the next piece overwrites.
 */
function* linesOf(file: string): Generator<Buffer> {
  const fd = openSync(file, "r");
  try {
    let input = Buffer.allocUnsafe(SPOOL_READ);
    let held = 0;
    for (;;) {
      if (held === input.length) {
        // A line longer than the buffer: room for it.
        const grown = Buffer.allocUnsafe(2 * input.length);
        input.copy(grown, 0, 0, held);
        input = grown;
      }
      const bytesRead = readSync(fd, input, held, input.length - held, null);
      const end = held + bytesRead;
      if (bytesRead === 0) {
        if (end > 0) yield input.subarray(0, end);
        return;
      }
      const last = input.lastIndexOf(LF, end - 1);
      if (last < 0) {
        held = end;
        continue;
      }
      yield input.subarray(0, last + 1);
      input.copyWithin(0, last + 1, end);
      held = end - last - 1;
    }
  } finally {
    closeSync(fd);
  }
}

/** Copies `file` to `out` as it is. */
export async function copySpool(file: string, out: Writable): Promise<void> {
  for (const piece of linesOf(file)) await writeOut(out, piece);
}

/**
 * Copies the line `line[from, end)` padded to `widths` into `out` from `at`; returns where it
 * ends (after its LF). Widths count UTF-16 units, as String.length does: one per UTF-8 lead
 * byte, two for a 4-byte sequence (a pair of surrogates). Spaces left at the end go, as
 * trimEnd() took them (a cell itself never ends in whitespace).
 */
export function padLine(
  line: Uint8Array,
  from: number,
  end: number,
  widths: readonly number[],
  out: Uint8Array,
  at: number,
): number {
  let o = at;
  let column = 0;
  let units = 0;
  for (let i = from; i < end; i++) {
    const b = line[i] as number;
    if (b === TAB) {
      for (let pad = Math.max((widths[column] ?? 0) - units, 0) + 2; pad > 0; pad--) out[o++] = SPACE;
      column++;
      units = 0;
      continue;
    }
    out[o++] = b;
    if ((b & 0xc0) !== 0x80) units += b >= 0xf0 ? 2 : 1;
  }
  while (o > at && out[o - 1] === SPACE) o--;
  out[o++] = LF;
  return o;
}

/** The longest a padded line can be: its bytes, and for each tab its column's width plus two. */
function roomFor(bytes: number, widths: readonly number[]): number {
  return bytes + widths.reduce((sum, w) => sum + w + 2, 0) + 1;
}

/** Writes the table lines of the spool `file` to `out`, padded to `widths`. */
export async function writePaddedTable(
  file: string,
  widths: readonly number[],
  out: Writable,
): Promise<void> {
  // Written out and then filled again: out has taken the bytes before the next line is padded.
  let buffer = Buffer.allocUnsafe(WRITE_AT * 2);
  let used = 0;
  const send = async () => {
    if (used === 0) return;
    await writeOut(out, buffer.subarray(0, used));
    used = 0;
  };
  for (const bytes of linesOf(file)) {
    let from = 0;
    while (from < bytes.length) {
      const lf = bytes.indexOf(LF, from);
      const end = lf < 0 ? bytes.length : lf;
      const room = roomFor(end - from, widths);
      if (used + room > buffer.length) {
        await send();
        if (room > buffer.length) buffer = Buffer.allocUnsafe(room);
      }
      used = padLine(bytes, from, end, widths, buffer, used);
      from = end + 1;
    }
    if (used >= WRITE_AT) await send();
  }
  await send();
}
