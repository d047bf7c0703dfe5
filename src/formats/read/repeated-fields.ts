/**
 * One string per distinct value for the row spool's fields that repeat from row to row (a
 * payee's tax number, account and name, the currency): a batch pays the same suppliers again and
 * again, and every later step looks these fields up in maps (parsed accounts, tax bases, the
 * verdict memo, the knowledge index). A string made afresh for each row is hashed and searched
 * for in V8's string table at each such lookup; the string kept here is hashed once, and the rows
 * share it rather than each making its own.
 *
 * Values are found by the hash of their bytes (the caller's, computed as it scans them) and
 * confirmed byte for byte against a copy kept here. Bounded: at most LIMIT values of at most
 * MAX_BYTES bytes each. When full, it starts again if at least as many lookups found a value as
 * made one; otherwise the batch's values do not repeat (a payee a row), and it stops keeping any:
 * every value it keeps and later drops is garbage that outlives the young generation, and a file
 * of 200,000 distinct payees would otherwise grow the heap by tens of megabytes between full
 * collections.
 */
import { utf8Text } from "./utf8-bytes.ts";

/** Values kept (a batch's payees times the repeating fields, with room to spare). */
const LIMIT = 32_768;
/** Longer values (rarely repeated, such as references) are read as they come. */
export const MAX_BYTES = 64;
/** No entry: the end of a chain of values with one hash. */
const NONE = -1;

export class RepeatedFields {
  /** The first value of each hash (its number in the lists below); later ones are chained. */
  private readonly first = new Map<number, number>();
  private readonly chained = new Int32Array(LIMIT);
  private readonly starts = new Int32Array(LIMIT);
  private readonly lengths = new Int32Array(LIMIT);
  private readonly strings: string[] = [];
  /** The bytes of every value kept, one after another (grown as values come: a batch of few payees keeps little). */
  private bytes = Buffer.allocUnsafe(64 * 1024);
  private used = 0;
  /** Lookups that found their value since the last start. */
  private found = 0;
  /** False once a start's values were found less often than made: every value is made afresh. */
  private keeping = true;

  /** Whether values are still kept (false once a batch's values proved not to repeat). */
  get keeps(): boolean {
    return this.keeping;
  }

  /**
   * The text of `source[start, end)` (end > start, end - start ≤ MAX_BYTES), `hash` the caller's
   * hash of those bytes (any function of them: equal bytes, equal hash).
   */
  text(source: Buffer, start: number, end: number, hash: number): string {
    if (!this.keeping) return utf8Text(source, start, end);
    const length = end - start;
    // A small integer key: V8 hashes it without a lookup of its own.
    const key = hash & 0x3fffffff;
    const head = this.first.get(key);
    for (let k = head ?? NONE; k !== NONE; k = this.chained[k] as number) {
      if (this.lengths[k] === length && this.sameBytes(k, source, start, end)) {
        this.found++;
        return this.strings[k]!;
      }
    }
    const made = utf8Text(source, start, end);
    if (this.strings.length === LIMIT) {
      this.keeping = this.found >= LIMIT;
      this.first.clear();
      this.strings.length = 0;
      this.used = 0;
      this.found = 0;
      if (!this.keeping) this.bytes = Buffer.alloc(0);
      return made;
    }
    const k = this.strings.length;
    this.strings.push(made);
    this.starts[k] = this.used;
    this.lengths[k] = length;
    if (this.used + length > this.bytes.length) {
      const grown = Buffer.allocUnsafe(2 * this.bytes.length);
      this.bytes.copy(grown, 0, 0, this.used);
      this.bytes = grown;
    }
    this.used += source.copy(this.bytes, this.used, start, end);
    this.chained[k] = head ?? NONE;
    this.first.set(key, k);
    return made;
  }

  private sameBytes(k: number, source: Buffer, start: number, end: number): boolean {
    const { bytes } = this;
    let at = this.starts[k] as number;
    for (let i = start; i < end; i++, at++) if (bytes[at] !== source[i]) return false;
    return true;
  }
}

/** The hash RepeatedFields expects, one byte at a time (FNV-1a): `h` starts at FIELD_HASH_START. */
export const FIELD_HASH_START = 0x811c9dc5 | 0;
export function hashByte(h: number, byte: number): number {
  return Math.imul(h ^ byte, 0x01000193);
}
