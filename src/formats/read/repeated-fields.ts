/**
 * One string per distinct value for the row spool's fields that repeat from row to row (a
 * payee's tax number, account and name, the currency): a batch pays the same suppliers again and
 * again, and every later step looks these fields up in maps (parsed accounts, tax bases, the
 * verdict memo, the knowledge index). A string made afresh for each row is hashed and searched
 * for in V8's string table at each such lookup (about a tenth of a check's time on 200,000 rows);
 * the string kept here is hashed once, and the rows share it rather than each making its own.
 *
 * Direct-mapped: a value's bytes pick one slot by their hash, a slot holds the last value that
 * came there, and a value is given out only when its bytes equal the slot's. Bounded: SLOTS
 * values of at most MAX_BYTES bytes each.
 */
import { utf8Text } from "./utf8-bytes.ts";

const SLOTS = 8192;
/** Longer values (rarely repeated, such as references) are read as they come. */
export const MAX_BYTES = 64;

export class RepeatedFields {
  private readonly hashes = new Int32Array(SLOTS);
  private readonly lengths = new Int32Array(SLOTS);
  private readonly strings = new Array<string | null>(SLOTS).fill(null);
  /** The bytes of each slot's value, at slot × MAX_BYTES. */
  private readonly bytes = Buffer.alloc(SLOTS * MAX_BYTES);

  /**
   * The text of `source[start, end)` (end > start, end - start ≤ MAX_BYTES), `hash` the caller's
   * hash of those bytes (any function of them: equal bytes, equal hash).
   */
  text(source: Buffer, start: number, end: number, hash: number): string {
    const length = end - start;
    const slot = hash & (SLOTS - 1);
    const kept = this.strings[slot];
    if (kept != null && this.hashes[slot] === hash && this.lengths[slot] === length) {
      const { bytes } = this;
      let at = slot * MAX_BYTES;
      let i = start;
      while (i < end && bytes[at] === source[i]) {
        at++;
        i++;
      }
      if (i === end) return kept;
    }
    const made = utf8Text(source, start, end);
    source.copy(this.bytes, slot * MAX_BYTES, start, end);
    this.hashes[slot] = hash;
    this.lengths[slot] = length;
    this.strings[slot] = made;
    return made;
  }
}

/** The hash RepeatedFields expects, one byte at a time (FNV-1a): `h` starts at FIELD_HASH_START. */
export const FIELD_HASH_START = 0x811c9dc5 | 0;
export function hashByte(h: number, byte: number): number {
  return Math.imul(h ^ byte, 0x01000193);
}
