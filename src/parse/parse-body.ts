/** Runs the parsers over one stored body: the first that recognises it wins. */
import { changesJsonParser } from "./changes-json.ts";
import { isJsonType } from "./json-body.ts";
import {
  type ChangeFileParser,
  isUnrecognised,
  ParseFailure,
  type ParseOutcome,
  type StoredBody,
} from "./types.ts";

/** Today's parsers, tried in order. Add a new shape by adding its parser here. */
export const PARSERS: readonly ChangeFileParser[] = [changesJsonParser];

function describe(body: StoredBody): string {
  const kind = body.contentType ?? "no content type";
  if (body.json !== null && body.json !== undefined) return `JSON of an unknown shape (${kind})`;
  if (isJsonType(body.contentType)) return `JSON of an unknown shape (${kind})`;
  return `a body of type ${kind}`;
}

export function parseBody(body: StoredBody, parsers: readonly ChangeFileParser[] = PARSERS): ParseOutcome {
  const near: string[] = [];
  for (const parser of parsers) {
    try {
      const values = parser.parse(body);
      if (isUnrecognised(values)) near.push(`${parser.name}: ${values.unrecognised}`);
      else if (values !== null) return { status: "parsed", parser: parser.name, values };
    } catch (error) {
      if (error instanceof ParseFailure)
        return { status: "failed", parser: parser.name, reason: error.message };
      return {
        status: "failed",
        parser: parser.name,
        reason: `parser ${parser.name} failed: ${String(error)}`,
      };
    }
  }
  if ((body.json === null || body.json === undefined) && !body.bytes) {
    return { status: "failed", parser: null, reason: "the file has no stored body" };
  }
  const why = near.length > 0 ? ` (${near.join("; ")})` : "";
  return { status: "unrecognised", reason: `no parser recognises ${describe(body)}${why}` };
}
