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
}

/** The body has a parser's shape but cannot be read; the message says what is wrong. */
export class ParseFailure extends Error {}

export type ParseOutcome =
  | { status: "parsed"; parser: string; values: HeadingValue[] }
  | { status: "unrecognised"; reason: string }
  | { status: "failed"; parser: string | null; reason: string };
