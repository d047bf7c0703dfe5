/**
 * The text output's table read back from its spool and padded as bytes: the spool holds UTF-8
 * lines of tab-separated cells, none with a tab or line break inside (cell() escapes them), so a
 * line is copied byte by byte, each tab becoming the padding its column needs. Decoding the
 * spool to strings, splitting and encoding the padded lines again cost several times as much.
 */
import { once } from "node:events";
import { createReadStream } from "node:fs";
import type { Writable } from "node:stream";

const TAB = 0x09;
const LF = 0x0a;
const SPACE = 0x20;
/** Bytes gathered before they are written out. */
const WRITE_AT = 64 * 1024;
/**
 * The spool is read in pieces this large: each read is a round trip to the thread pool that the
 * process only waits for, and a batch's table runs to tens of megabytes.
 */
export const SPOOL_READ = 1024 * 1024;

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
  let buffer = Buffer.allocUnsafe(WRITE_AT * 2);
  let used = 0;
  const send = async () => {
    if (used === 0) return;
    const full = buffer.subarray(0, used);
    buffer = Buffer.allocUnsafe(buffer.length);
    used = 0;
    if (!out.write(full)) await once(out, "drain");
  };
  let carry: Buffer | null = null;
  for await (const piece of createReadStream(file, { highWaterMark: SPOOL_READ })) {
    const bytes: Buffer = carry ? Buffer.concat([carry, piece as Buffer]) : (piece as Buffer);
    let from = 0;
    for (let end = bytes.indexOf(LF, from); end >= 0; end = bytes.indexOf(LF, from)) {
      const room = roomFor(end - from, widths);
      if (used + room > buffer.length) {
        await send();
        if (room > buffer.length) buffer = Buffer.allocUnsafe(room);
      }
      used = padLine(bytes, from, end, widths, buffer, used);
      from = end + 1;
    }
    carry = from < bytes.length ? Buffer.from(bytes.subarray(from)) : null;
    if (used >= WRITE_AT) await send();
  }
  if (carry) {
    const room = roomFor(carry.length, widths);
    if (used + room > buffer.length) {
      await send();
      if (room > buffer.length) buffer = Buffer.allocUnsafe(room);
    }
    used = padLine(carry, 0, carry.length, widths, buffer, used);
  }
  await send();
}
