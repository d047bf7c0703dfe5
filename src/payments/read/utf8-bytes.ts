/**
 * UTF-8 between strings and a Buffer's bytes without Buffer#toString's and Buffer#write's
 * argument handling: the spools call these for every field of every row (eight times a row),
 * where that handling (offsets validated, the encoding's name looked up) cost more than the
 * copy itself. Node's Buffer has carried utf8Slice and utf8Write, the methods those two end in,
 * since its first releases; the callers here check their offsets themselves.
 */

interface Utf8Buffer {
  utf8Slice(start: number, end: number): string;
  utf8Write(text: string, offset: number, length: number): number;
}

/** The text of `bytes[start, end)` (end > start, both within `bytes`). */
export function utf8Text(bytes: Buffer, start: number, end: number): string {
  return (bytes as unknown as Utf8Buffer).utf8Slice(start, end);
}

/** Writes `text` into `bytes` from `at` (room for it made by the caller); the bytes written. */
export function writeUtf8(bytes: Buffer, text: string, at: number): number {
  return (bytes as unknown as Utf8Buffer).utf8Write(text, at, bytes.length - at);
}
