/**
 * A Buffer's UTF-8 bytes as a string through utf8Slice, skipping toString's argument handling,
 * which cost as much as the copy for the row spool's eight fields a row (docs/benchmarks.md). The
 * caller checks the offsets itself.
 */

interface Utf8Buffer {
  utf8Slice(start: number, end: number): string;
}

/** The text of `bytes[start, end)` (end > start, both within `bytes`). */
export function utf8Text(bytes: Buffer, start: number, end: number): string {
  return (bytes as unknown as Utf8Buffer).utf8Slice(start, end);
}
