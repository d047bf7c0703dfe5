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

  /**
   * Reads the next piece. Text is read as its UTF-8 bytes: the characters counted are ASCII, and
   * no byte of another character's encoding equals one of them.
   */
  update(piece: Uint8Array | string): void {
    const bytes = typeof piece === "string" ? Buffer.from(piece, "utf8") : piece;
    // The state in locals: this runs for every byte of every change file.
    let { depth, deepest, inString, escaped } = this;
    const stop = this.stopAbove;
    for (let i = 0; i < bytes.length && deepest <= stop; i++) {
      const c = bytes[i]!;
      if (inString) {
        if (escaped) escaped = false;
        else if (c === BACKSLASH) escaped = true;
        else if (c === QUOTE) inString = false;
      } else if (c === QUOTE) inString = true;
      else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
        if (++depth > deepest) deepest = depth;
      } else if ((c === CLOSE_ARRAY || c === CLOSE_OBJECT) && depth > 0) depth--;
    }
    Object.assign(this, { depth, deepest, inString, escaped });
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
