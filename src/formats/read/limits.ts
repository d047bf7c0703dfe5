/**
 * What one record of a payment file may hold. A bank or ERP export has lines of a few hundred
 * characters; a record far longer is a damaged or hostile file, and reading it whole would cost
 * memory and time out of all proportion to what it can carry. A NUL character has no place in a
 * payment's text and cannot be stored in Postgres, so it is refused here, naming its line.
 */

/** The longest record (a line, or a quoted record over several lines) read, in characters: 64 Ki. */
export const MAX_RECORD_CHARS = 64 * 1024;

/**
 * The most bytes of UTF-8 held while waiting for a line's end: a record at the bound written
 * in four-byte characters. Longer, the line cannot be within MAX_RECORD_CHARS.
 */
export const MAX_PENDING_UTF8_BYTES = 4 * MAX_RECORD_CHARS;

/** A record longer than MAX_RECORD_CHARS; `line` is the one it starts on. */
export class RecordTooLongError extends Error {
  readonly line: number;
  constructor(line: number, quoted: boolean) {
    super(
      `line ${line} is longer than ${MAX_RECORD_CHARS} characters, more than a payment's record can hold${
        quoted ? " (or a quote opened on it never closes)" : ""
      }: the file was not read further`,
    );
    this.name = "RecordTooLongError";
    this.line = line;
  }
}

/** A NUL character (a zero byte) in a record; `line` is the one it stands on. */
export class NulCharacterError extends Error {
  readonly line: number;
  constructor(line: number) {
    super(
      `line ${line} holds a NUL character (a zero byte), which no payment field may contain: the file may be binary or saved in another encoding (give --encoding)`,
    );
    this.name = "NulCharacterError";
    this.line = line;
  }
}

/**
 * The most text a chunk of rows holds while it is checked (UTF-16 units, as the spool counts them
 * in UTF-8 bytes): 2 Mi. A chunk is copied several times over as it is judged, recorded and
 * written out, so a chunk bounded only by its rows (1,000 of up to 64 Ki characters each) could
 * hold hundreds of megabytes; bounded by its text it holds a few, whatever its rows' width.
 */
export const MAX_CHUNK_TEXT = 2 * 1024 * 1024;

/** The text of a row's fields, in UTF-16 units. */
export function textOfFields(fields: readonly (string | null)[]): number {
  let units = 0;
  for (const f of fields) if (f !== null) units += f.length;
  return units;
}
