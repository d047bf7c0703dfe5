/**
 * Decoded text of a payment file to numbered records (pure). Most bank exports quote nothing, so a
 * line without a quote character is split on the delimiter here, which is several times cheaper
 * than a general CSV parser; a record that has a quote (a delimiter or a line break inside a
 * field) is handed whole to csv-parse, so quoting rules stay the library's, unless it has the
 * plainest shape, which quoted-fields.ts reads to the fields csv-parse gives.
 */
import { CsvError } from "csv-parse";
import { parse } from "csv-parse/sync";
import { hasOddSpaces } from "./amounts.ts";
import { UndecodableLineError } from "./encoding.ts";
import { MAX_RECORD_CHARS, NulCharacterError, RecordTooLongError } from "./limits.ts";
import { plainQuotedFields } from "./quoted-fields.ts";

export interface NumberedRecord {
  fields: string[];
  /** The line the record starts on (1 = the file's first line). */
  line: number;
  /** A field may hold a no-break, narrow, figure or thin space (amounts.ts plainSpaces); false: none does. */
  oddSpaces: boolean;
}

/**
 * What a wrongly chosen encoding leaves in text: U+FFFD, which iconv-lite writes for a byte its
 * encoding does not define, and C1 control codes, which is what ISO-8859-2 makes of the letters
 * Windows-1250 keeps in 0x80-0x9F, and a lone half of a UTF-16 surrogate pair. UTF-8 is checked
 * byte by byte before (encoding.ts).
 */
const UNDECODED = /[\u0080-\u009f\uFFFD\uD800-\uDFFF]/u;

/**
 * UNDECODED without the `u` flag: any half of a surrogate pair, paired or not. It finds nothing
 * where UNDECODED finds nothing and runs five times as fast on a decoded piece of the file (the
 * `u` flag's pairing of surrogates is slow), so a piece is tested with it first.
 */
const UNDECODED_UNITS = /[\u0080-\u009f\uFFFD\uD800-\uDFFF]/;

function hasUndecoded(text: string): boolean {
  return UNDECODED_UNITS.test(text) && UNDECODED.test(text);
}

/** A quote left open at the end of the file. */
export class UnclosedQuoteError extends Error {
  readonly line: number;
  constructor(line: number) {
    super(`the file cannot be read as CSV: the quote opened in the record of line ${line} never closes`);
    this.name = "UnclosedQuoteError";
    this.line = line;
  }
}

/**
 * Where the record starting at `from` ends: the index of its closing line feed, or -1 when the
 * text ends first. Quotes open a field only at its start (blanks before them allowed), as
 * csv-parse reads them with `relax_quotes`; a doubled quote inside a quoted field is one quote.
 */
export function recordEnd(text: string, from: number, delimiter: string): number {
  let at = from;
  for (;;) {
    while (text[at] === " " || text[at] === "\t") at++;
    if (text[at] === '"') {
      for (at++; ; at += 2) {
        at = text.indexOf('"', at);
        if (at < 0 || at + 1 >= text.length) return -1;
        if (text[at + 1] !== '"') break;
      }
      at++;
    }
    for (; at < text.length; at++) {
      const char = text[at];
      if (char === "\n") return at;
      if (char === delimiter) break;
    }
    if (at >= text.length) return -1;
    at++;
  }
}

function countLineFeeds(text: string): number {
  let count = 0;
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) count++;
  return count;
}

/** The line a NUL character at `at` of `record` (starting on `start`) stands on. */
function lineOfNul(record: string, start: number, at: number): number {
  return start + countLineFeeds(record.slice(0, at));
}

/**
 * Cuts text, fed in pieces of any size, into records numbered by the line they start on. Blank
 * records (every field empty) are counted as lines but not given out. A record longer than
 * MAX_RECORD_CHARS is refused as soon as that much of it has been fed (so the text held, and
 * the work per piece, stay bounded whatever the file), and so is a NUL character.
 */
export class RecordSplitter {
  private carry = "";
  private line: number;

  /**
   * `linesBefore`: the lines already dropped (title lines and the header). `checked`: look for
   * what a wrong 8-bit encoding leaves (named in `encoding`) and refuse the line it is on.
   */
  constructor(
    private readonly delimiter: string,
    linesBefore: number,
    private readonly checked: false | { encoding: string },
  ) {
    this.line = linesBefore;
  }

  /** The records complete in what was fed so far (all of them when `final`). */
  push(piece: string, final = false): NumberedRecord[] {
    const text = this.carry + piece;
    const records: NumberedRecord[] = [];
    const check = this.checked !== false && hasUndecoded(text);
    const nul = text.includes("\0");
    const oddSpaces = hasOddSpaces(text);
    let from = 0;
    let quoted = text.indexOf('"');
    while (from < text.length) {
      let end = text.indexOf("\n", from);
      if (quoted >= 0 && quoted < from) quoted = text.indexOf('"', from);
      if (quoted >= 0 && (end < 0 || quoted < end)) {
        end = recordEnd(text, from, this.delimiter);
        if (end < 0 && !final) {
          if (text.length - from > MAX_RECORD_CHARS) throw new RecordTooLongError(this.line + 1, true);
          break;
        }
      } else if (end < 0 && !final) {
        if (text.length - from > MAX_RECORD_CHARS) throw new RecordTooLongError(this.line + 1, false);
        break;
      }
      const stop = end < 0 ? text.length : end;
      const record = text.slice(from, text[stop - 1] === "\r" && stop > from ? stop - 1 : stop);
      const start = this.line + 1;
      const hasQuote = quoted >= 0 && quoted < stop;
      if (record.length > MAX_RECORD_CHARS) throw new RecordTooLongError(start, hasQuote);
      const nulAt = nul ? record.indexOf("\0") : -1;
      if (nulAt >= 0) throw new NulCharacterError(lineOfNul(record, start, nulAt));
      this.line += 1 + (hasQuote ? countLineFeeds(record) : 0);
      from = stop + 1;
      const fields = hasQuote ? this.parseQuoted(record, start) : splitPlain(record, this.delimiter);
      if (fields === null) continue;
      if (check) this.checkFields(fields, start);
      records.push({ fields, line: start, oddSpaces });
    }
    this.carry = from < text.length ? text.slice(from) : "";
    return records;
  }

  private checkFields(fields: readonly string[], line: number): void {
    if (this.checked === false) return;
    for (const field of fields) {
      if (hasUndecoded(field)) throw new UndecodableLineError(line, this.checked.encoding);
    }
  }

  /** A record with a quote, read by csv-parse (or as it reads it: quoted-fields.ts); null when blank. */
  private parseQuoted(record: string, line: number): string[] | null {
    const plain = plainQuotedFields(record, this.delimiter);
    if (plain !== undefined) return plain.every((field) => field === "") ? null : plain;
    let parsed: string[][];
    try {
      parsed = parse(record, {
        delimiter: this.delimiter,
        relax_column_count: true,
        relax_quotes: true,
        trim: true,
      });
    } catch (error) {
      if (error instanceof CsvError && error.code === "CSV_QUOTE_NOT_CLOSED")
        throw new UnclosedQuoteError(line);
      if (error instanceof CsvError) {
        const lines = (error as CsvError & { lines?: number }).lines ?? 1;
        throw new CsvLineError(line + lines - 1, error.message);
      }
      throw error;
    }
    const fields = parsed.flat();
    return fields.every((field) => field === "") ? null : fields;
  }
}

/** csv-parse's complaint about one record, with the file's line it stands on. */
export class CsvLineError extends Error {
  readonly line: number;
  constructor(line: number, reason: string) {
    super(`the file cannot be read as CSV: ${reason}`);
    this.name = "CsvLineError";
    this.line = line;
  }
}

/**
 * A line without quotes: its fields, trimmed; null when every field is empty. V8 keeps a
 * substring of 13 characters or more as a view of the string it was cut from, here a whole
 * decoded piece of the file (~100 KiB). Nothing keeps these fields: the reader spools each row
 * and hands on only rows read back from the spool (read/row-spool.ts), whose strings are their own.
 */
function splitPlain(line: string, delimiter: string): string[] | null {
  const fields = line.split(delimiter);
  let blank = true;
  for (let i = 0; i < fields.length; i++) {
    const field = (fields[i] as string).trim();
    fields[i] = field;
    if (field !== "") blank = false;
  }
  return blank ? null : fields;
}
