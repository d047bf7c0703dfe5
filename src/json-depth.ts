/**
 * How deep JSON nests, measured by a linear scan without recursion and before anything parses
 * it: Postgres refuses a jsonb nested some thousands of levels deep ("stack depth limit
 * exceeded"), and code walking a parsed value by recursion would overflow Node's own stack.
 * Registry answers are bounded by it (api/body.ts), and change files (a few levels deep; one
 * past MAX_FILE_JSON_DEPTH is kept as bytes and failed for good). Pure.
 *
 * The scan counts `[` and `{` outside strings (a string's escapes skipped), fed as bytes or text
 * in pieces of any size: the structural characters are ASCII, so the bytes of UTF-8 and of the
 * single-byte charsets read the same as their text.
 */

/** Deepest nesting of arrays and objects a change file may have. */
export const MAX_FILE_JSON_DEPTH = 1000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

export class JsonDepthMeter {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** The deepest level seen so far. */
  deepest = 0;

  /** `stopAbove`: once the nesting passes it, the rest is not read (the answer is known). */
  constructor(private readonly stopAbove = Number.POSITIVE_INFINITY) {}

  /** Reads the next piece (bytes, or text as UTF-16 code units). */
  update(piece: Uint8Array | string): void {
    const text = typeof piece === "string";
    for (let i = 0; i < piece.length && this.deepest <= this.stopAbove; i++) {
      this.step(text ? (piece as string).charCodeAt(i) : (piece as Uint8Array)[i]!);
    }
  }

  private step(c: number): void {
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (c === BACKSLASH) this.escaped = true;
      else if (c === QUOTE) this.inString = false;
      return;
    }
    if (c === QUOTE) this.inString = true;
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      this.depth++;
      if (this.depth > this.deepest) this.deepest = this.depth;
    } else if ((c === CLOSE_ARRAY || c === CLOSE_OBJECT) && this.depth > 0) this.depth--;
  }

  /** Why the JSON read so far may not be stored or parsed, or null when its nesting is within the bound. */
  refusal(max = MAX_FILE_JSON_DEPTH): string | null {
    return this.deepest > max
      ? `the JSON is nested deeper than ${max} levels (${this.deepest} levels)`
      : null;
  }
}

/** Why `text` (JSON) nests too deep to parse, or null. */
export function jsonTooDeep(text: string, max = MAX_FILE_JSON_DEPTH): string | null {
  const meter = new JsonDepthMeter();
  meter.update(text);
  return meter.refusal(max);
}
