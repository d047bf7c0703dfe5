/**
 * The contract between stored change-file bodies and the parsers that read them. A parser is a
 * pure function: it says "not mine" (null, or `{unrecognised}` with the reason when the body
 * looks like its shape but lacks a field it needs), returns the file's entries, or throws
 * ParseFailure when the body has its shape but is broken. Which change an entry belongs to is
 * decided afterwards (attribute.ts), from the business and chapter the entry names.
 */

/** A change-file body as stored in change_files: JSON when it parsed as JSON, else bytes. */
export interface StoredBody {
  path: string;
  contentType: string | null;
  json: unknown;
  bytes: Buffer | null;
}

/**
 * One entry of a change file: a heading's values before and after (any JSON; null for none),
 * and the business and chapter the entry names (its own, or the file's), absent or null when it
 * names none.
 */
export interface HeadingValue {
  heading: string;
  /** Null when `oldUnknown`: the entry did not say what the heading held before. */
  oldValue: unknown;
  oldUnknown?: true;
  newValue: unknown;
  /** Tax base number (8 digits) of the business the entry is about. */
  taxId?: string | null;
  chapter?: string | null;
}

/** A body that looks like a parser's shape but lacks what the parser needs; `unrecognised` says what. */
export interface Unrecognised {
  unrecognised: string;
}

export interface ChangeFileParser {
  /** Recorded in change_files.parser. */
  name: string;
  /** The entries in file order, or null / Unrecognised when the body is not this parser's shape. */
  parse(body: StoredBody): HeadingValue[] | Unrecognised | null;
  /**
   * How to read a body too large to load whole (stored as JSON): the database hands out the
   * elements of one top-level array a page at a time and `element` reads each, so memory stays
   * bounded whatever the body's size. A parser without it leaves such bodies failed.
   */
  extraction?: ArrayExtraction;
}

/** What an entry naming no business or chapter takes from the file's top-level fields. */
export interface EntryDefaults {
  taxId: string | null;
  chapter: string | null;
}

/** A parser's shape for server-side extraction: `{ …, [key]: [element, …] }`. */
export interface ArrayExtraction {
  /** The top-level key of the array whose elements carry the values. */
  key: string;
  /** Keys every element must have for the body to be this parser's shape (checked by the database). */
  required: readonly string[];
  /** The defaults from the body's other top-level fields; throws ParseFailure when they are broken. */
  defaults(top: Record<string, unknown>): EntryDefaults;
  /** One element to its entry; Unrecognised when it is not of the shape, ParseFailure when broken. */
  element(entry: unknown, index: number, defaults: EntryDefaults): HeadingValue | Unrecognised;
}

/** The body has a parser's shape but cannot be read; the message says what is wrong. */
export class ParseFailure extends Error {}

export function isUnrecognised(value: unknown): value is Unrecognised {
  return typeof value === "object" && value !== null && "unrecognised" in value;
}

export type ParseOutcome =
  | { status: "parsed"; parser: string; values: HeadingValue[] }
  | { status: "unrecognised"; reason: string }
  | { status: "failed"; parser: string | null; reason: string };
