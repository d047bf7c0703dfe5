/**
 * The rows a validation pass found good, kept in a temporary file so the check does not read and
 * decode the payment file a second time. Each row is written as bytes: its line (6 bytes, little
 * endian), a byte whose bits mark the fields that are null, then its eight text fields in
 * PaymentRow's order, each in UTF-8 and ended by a zero byte. A field never holds a NUL (the
 * reader refuses the line: limits.ts), so a zero byte only ever ends a field.
 *
 * Why bytes rather than JSON lines (measured on 200,000 rows): no JSON text is built, escaped,
 * parsed or held as a string of a megabyte (such strings go straight to the old generation and
 * made most of the garbage a check left there), and every field read back is a string of its own,
 * copied out of the buffer: no view of a larger string, so a cache that keeps a row's tax number
 * or account never keeps a piece of the spool with it.
 */
import { once } from "node:events";
import { createReadStream, createWriteStream, rmSync, type WriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { PaymentRow } from "../batch-row.ts";
import { MAX_CHUNK_TEXT, textOfFields } from "./limits.ts";
import { FIELD_HASH_START, hashByte, MAX_BYTES, RepeatedFields } from "./repeated-fields.ts";
import { utf8Text } from "./utf8-bytes.ts";

/** Bytes before a row's fields: its line (6) and its null bits (1). */
const HEAD = 7;
const LINE_BYTES = 6;
const FIELDS = 8;
/** Encoded rows gathered before they are written out. */
const FLUSH_BYTES = 64 * 1024;
/** Pieces the spool is read back in. */
const READ_BYTES = 64 * 1024;

/** Spool folders not yet removed, so a process that exits early still leaves none behind. */
const live = new Set<string>();
let exitHooked = false;

function removeOnExit(dir: string): void {
  live.add(dir);
  if (exitHooked) return;
  exitHooked = true;
  process.once("exit", () => {
    for (const left of live) rmSync(left, { recursive: true, force: true });
  });
}

async function removeDir(dir: string): Promise<void> {
  live.delete(dir);
  await rm(dir, { recursive: true, force: true });
}

function fieldsOf(r: PaymentRow): (string | null)[] {
  return [r.taxId, r.bankAccount, r.amount, r.amountRaw, r.amountProblem, r.currency, r.reference, r.name];
}

/** The most bytes `r` can take: three of UTF-8 per UTF-16 unit at most, and the zero bytes. */
function roomFor(fields: readonly (string | null)[]): number {
  return HEAD + 3 * textOfFields(fields) + FIELDS;
}

/**
 * Writes `r` into `buffer` at `at` (room for it checked by the caller); where it ends. The fields
 * are encoded as one string joined by zero bytes (join writes a null as "", the null bits tell
 * it from an empty field): one encoding call per row, where a call per field cost more.
 */
function encodeRow(fields: readonly (string | null)[], line: number, buffer: Buffer, at: number): number {
  buffer.writeUIntLE(line, at, LINE_BYTES);
  let nulls = 0;
  for (let i = 0; i < FIELDS; i++) if (fields[i] === null) nulls |= 1 << i;
  buffer[at + LINE_BYTES] = nulls;
  let o = at + HEAD;
  o += buffer.write(fields.join("\0"), o, "utf8");
  buffer[o++] = 0;
  return o;
}

/** Where the row decodeRow read last ends: the next one's start. */
interface Cursor {
  next: number;
}

/** The fields of the row being decoded: one array for every row, not one made per row. */
const values: (string | null)[] = new Array(FIELDS);

/**
 * Bit i set: field i repeats from row to row (tax number, account, amount problem, currency,
 * name) and is read through RepeatedFields; the amount, its text and the reference are not.
 */
const REPEATED = 0b10110011;

/**
 * The row starting at `at` of `bytes` (`cursor.next` set to where the next one starts); null when
 * `bytes` ends inside it. `repeated` gives the repeating fields one string per value (null: a
 * string of their own each).
 */
function decodeRow(
  bytes: Buffer,
  at: number,
  cursor: Cursor,
  repeated: RepeatedFields | null,
): PaymentRow | null {
  if (at + HEAD > bytes.length) return null;
  const line = bytes.readUIntLE(at, LINE_BYTES);
  const nulls = bytes[at + LINE_BYTES] as number;
  let from = at + HEAD;
  const length = bytes.length;
  for (let i = 0; i < FIELDS; i++) {
    // A loop finds a field's end: its few bytes cost less than a call of Buffer#indexOf each.
    let end = from;
    if (repeated !== null && REPEATED & (1 << i)) {
      // The same loop hashes the field's bytes for RepeatedFields; the field's index is hashed
      // first, so equal text in two fields takes two slots.
      let hash = hashByte(FIELD_HASH_START, i);
      while (end < length && bytes[end] !== 0) hash = hashByte(hash, bytes[end++] as number);
      if (end === length) return null;
      values[i] =
        nulls & (1 << i)
          ? null
          : end === from
            ? ""
            : end - from <= MAX_BYTES
              ? repeated.text(bytes, from, end, hash)
              : utf8Text(bytes, from, end);
    } else {
      while (end < length && bytes[end] !== 0) end++;
      if (end === length) return null;
      values[i] = nulls & (1 << i) ? null : end === from ? "" : utf8Text(bytes, from, end);
    }
    from = end + 1;
  }
  const row: PaymentRow = {
    line,
    taxId: values[0] as string | null,
    bankAccount: values[1] as string,
    amount: values[2] as string | null,
    amountRaw: values[3] as string | null,
    amountProblem: values[4] as string | null,
    currency: values[5] as string | null,
    reference: values[6] as string | null,
    name: values[7] as string | null,
  };
  cursor.next = from;
  return row;
}

/**
 * A copy of `r` as the spool gives it back: its strings are its own, not views of the file's
 * decoded text (the check may keep them while the rest of the file is read).
 */
export function detachedRow(r: PaymentRow): PaymentRow {
  const fields = fieldsOf(r);
  const buffer = Buffer.allocUnsafe(roomFor(fields));
  encodeRow(fields, r.line, buffer, 0);
  return decodeRow(buffer, 0, { next: 0 }, null) as PaymentRow;
}

export class RowSpool {
  private stream: WriteStream | null = null;
  private failed: Error | null = null;
  private buffer = Buffer.allocUnsafe(2 * FLUSH_BYTES);
  private used = 0;

  private constructor(private readonly dir: string) {}

  static async create(): Promise<RowSpool> {
    const dir = await mkdtemp(path.join(tmpdir(), "regwatch-rows-"));
    removeOnExit(dir);
    return new RowSpool(dir);
  }

  private get file(): string {
    return path.join(this.dir, "rows.bin");
  }

  /** Adds a row to what is written at the next `flush`. */
  add(r: PaymentRow): void {
    const fields = fieldsOf(r);
    const room = roomFor(fields);
    if (this.used + room > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(2 * this.buffer.length, this.used + room));
      this.buffer.copy(grown, 0, 0, this.used);
      this.buffer = grown;
    }
    this.used = encodeRow(fields, r.line, this.buffer, this.used);
  }

  /** Writes the rows added so far once they fill a piece (all of them when `all`). */
  async flush(all = false): Promise<void> {
    if (this.used === 0 || (!all && this.used < FLUSH_BYTES)) return;
    if (!this.stream) {
      this.stream = createWriteStream(this.file);
      this.stream.on("error", (error) => {
        this.failed ??= error;
      });
    }
    if (this.failed) throw this.failed;
    const full = this.buffer.subarray(0, this.used);
    this.buffer = Buffer.allocUnsafe(2 * FLUSH_BYTES);
    this.used = 0;
    if (!this.stream.write(full)) await once(this.stream, "drain");
  }

  /** Writes what is left and finishes; a write that failed (a full disk) is thrown here. */
  async close(): Promise<void> {
    await this.flush(true);
    if (this.stream && !this.stream.closed) {
      this.stream.end();
      await once(this.stream, "close");
    }
    if (this.failed) throw this.failed;
  }

  async discard(): Promise<void> {
    this.stream?.destroy();
    await removeDir(this.dir);
  }

  /**
   * The spooled rows `size` at a time, or fewer when they hold MAX_CHUNK_TEXT bytes (wide rows),
   * once; the spool is removed when they end or the reader stops.
   */
  async *chunks(size: number): AsyncGenerator<PaymentRow[]> {
    try {
      let chunk: PaymentRow[] = [];
      let text = 0;
      let carry: Buffer | null = null;
      const cursor: Cursor = { next: 0 };
      const repeated = new RepeatedFields();
      for await (const piece of createReadStream(this.file, { highWaterMark: READ_BYTES })) {
        const bytes: Buffer = carry ? Buffer.concat([carry, piece as Buffer]) : (piece as Buffer);
        let at = 0;
        // Once the batch's values proved not to repeat, its fields are read without hashing.
        const kept = repeated.keeps ? repeated : null;
        for (
          let row = decodeRow(bytes, at, cursor, kept);
          row !== null;
          row = decodeRow(bytes, at, cursor, kept)
        ) {
          chunk.push(row);
          text += cursor.next - at;
          at = cursor.next;
          if (chunk.length >= size || text >= MAX_CHUNK_TEXT) {
            yield chunk;
            chunk = [];
            text = 0;
          }
        }
        carry = at < bytes.length ? bytes.subarray(at) : null;
      }
      if (carry !== null) throw new Error("the spool of checked rows ends inside a row");
      if (chunk.length > 0) yield chunk;
    } finally {
      await removeDir(this.dir);
    }
  }
}
