/**
 * What the file phase learns of a change file's body while it streams past: its SHA-256, its
 * size, and whether Postgres may keep it as jsonb (a JSON content type, valid UTF-8, no NUL
 * either raw or as the `\u0000` escape jsonb refuses). Pure: it sees the chunks, holds none.
 */
import { createHash } from "node:crypto";

const JSON_TYPE = /[/+]json\b/i;
/** Long enough to carry a `\u0000` escape cut in two by a chunk boundary. */
const TAIL = 5;

export interface BodyFacts {
  sha256: string;
  size: number;
  /** True when the body goes to body_json (Postgres parses it); false keeps it as bytes untouched. */
  asJson: boolean;
}

export class BodyInspector {
  private readonly hash = createHash("sha256");
  private size = 0;
  private readonly decoder = new TextDecoder("utf-8", { fatal: true });
  private jsonCandidate: boolean;
  private tail = "";

  constructor(contentType: string | null) {
    this.jsonCandidate = contentType !== null && JSON_TYPE.test(contentType);
  }

  update(chunk: Buffer): void {
    this.hash.update(chunk);
    this.size += chunk.length;
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
    return { sha256: this.hash.digest("hex"), size: this.size, asJson: this.jsonCandidate };
  }

  private check(text: string): void {
    const seen = this.tail + text;
    if (seen.includes("\u0000") || seen.includes("\\u0000")) this.jsonCandidate = false;
    this.tail = seen.slice(-TAIL);
  }
}
