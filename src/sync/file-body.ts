/**
 * What the file phase learns of a change file's body while it streams past: its SHA-256, its
 * size, whether a body labelled JSON nests too deep to be stored or parsed at all (measured by a
 * linear scan, see src/json-depth.ts: such a body is kept as bytes and the file failed for
 * good), and whether Postgres may keep it as jsonb: a JSON content type declaring UTF-8 or no
 * charset, valid UTF-8 without a byte-order mark, and none of what jsonb refuses or the parser
 * must judge first (a NUL raw or as the `\u0000` escape, a `\ud800`-style surrogate escape,
 * which jsonb refuses when unpaired). Anything else is kept as bytes, untouched, for the parser
 * to decode by its charset and fail alone if it must. Pure: it sees the chunks, holds none.
 */
import { createHash } from "node:crypto";
import { JsonDepthMeter } from "../json-depth.ts";
import { charsetOf, isUtf8 } from "../parse/decode.ts";

const JSON_TYPE = /[/+]json\b/i;
/** Long enough to carry a six-character `\u0000` escape cut in two by a chunk boundary. */
const TAIL = 5;
/** An escape jsonb refuses or may refuse: NUL, or a surrogate half (refused when unpaired). */
const REFUSED_ESCAPE = /\\u(?:0000|[dD][89a-fA-F][0-9a-fA-F]{2})/;

export interface BodyFacts {
  sha256: string;
  size: number;
  /** True when the body goes to body_json (Postgres parses it); false keeps it as bytes untouched. */
  asJson: boolean;
  /** Why the body may not be stored as JSON nor parsed, whatever is tried again (too deep); null when none. */
  refusal: string | null;
}

export class BodyInspector {
  private readonly hash = createHash("sha256");
  private size = 0;
  /** ignoreBOM keeps a byte-order mark in the text, so that it is seen (jsonb refuses one). */
  private readonly decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  private started = false;
  private jsonCandidate: boolean;
  private tail = "";
  /** Measures every body labelled JSON, whatever its charset. */
  private readonly depth: JsonDepthMeter | null;

  constructor(contentType: string | null) {
    const labelled = contentType !== null && JSON_TYPE.test(contentType);
    this.jsonCandidate = labelled && isUtf8(charsetOf(contentType));
    this.depth = labelled ? new JsonDepthMeter() : null;
  }

  update(chunk: Buffer): void {
    this.hash.update(chunk);
    this.size += chunk.length;
    this.depth?.update(chunk);
    if (!this.jsonCandidate) return;
    let text: string;
    try {
      text = this.decoder.decode(chunk, { stream: true });
    } catch {
      this.jsonCandidate = false;
      return;
    }
    this.check(text);
  }

  finish(): BodyFacts {
    if (this.jsonCandidate) {
      try {
        this.check(this.decoder.decode());
      } catch {
        this.jsonCandidate = false;
      }
    }
    const refusal = this.depth?.refusal() ?? null;
    return {
      sha256: this.hash.digest("hex"),
      size: this.size,
      asJson: this.jsonCandidate && refusal === null,
      refusal,
    };
  }

  private check(text: string): void {
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.startsWith("\uFEFF")) this.jsonCandidate = false;
    }
    const seen = this.tail + text;
    if (seen.includes("\u0000") || REFUSED_ESCAPE.test(seen)) this.jsonCandidate = false;
    this.tail = seen.slice(-TAIL);
  }
}
