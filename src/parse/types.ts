/**
 * The contract between stored change-file bodies and the parsers that read them. A parser is a
 * pure function: it says "not mine" (null), returns the heading values, or throws ParseFailure
 * when the body has its shape but is broken.
 */

/** A change-file body as stored in change_files: JSON when it parsed as JSON, else bytes. */
export interface StoredBody {
  path: string;
  contentType: string | null;
  json: unknown;
  bytes: Buffer | null;
}

/** One changed heading: the values before and after (any JSON; null when absent). */
export interface HeadingValue {
  heading: string;
  oldValue: unknown;
  newValue: unknown;
}

export interface ChangeFileParser {
  /** Recorded in change_files.parser. */
  name: string;
  /** Heading values, in file order (duplicates allowed: the caller keeps the last), or null when the body is not this parser's shape. */
  parse(body: StoredBody): HeadingValue[] | null;
  /**
   * How to read a body too large to load whole (stored as JSON): the database hands out the
   * elements of one top-level array a page at a time and `element` reads each, so memory stays
   * bounded whatever the body's size. A parser without it leaves such bodies failed.
   */
  extraction?: ArrayExtraction;
}

/** A parser's shape for server-side extraction: `{ …, [key]: [element, …] }`. */
export interface ArrayExtraction {
  /** The top-level key of the array whose elements carry the values. */
  key: string;
  /** A key at least one element of a non-empty array must have for the body to be this parser's shape. */
  marker: string;
  /** One element to its heading value; throws ParseFailure when it is broken. */
  element(entry: unknown, index: number): HeadingValue;
}

/** The body has a parser's shape but cannot be read; the message says what is wrong. */
export class ParseFailure extends Error {}

export type ParseOutcome =
  | { status: "parsed"; parser: string; values: HeadingValue[] }
  | { status: "unrecognised"; reason: string }
  | { status: "failed"; parser: string | null; reason: string };
