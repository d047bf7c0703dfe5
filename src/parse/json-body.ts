/** The JSON value of a stored body, whether it was kept as jsonb or (JSON with NUL) as bytes. */
import { ParseFailure, type StoredBody } from "./types.ts";

const JSON_TYPE = /[/+]json\b/i;

export function isJsonType(contentType: string | null): boolean {
  return contentType !== null && JSON_TYPE.test(contentType);
}

/** undefined when the body is not JSON; throws ParseFailure when it claims to be JSON but does not parse. */
export function jsonOf(body: StoredBody): unknown {
  if (body.json !== null && body.json !== undefined) return body.json;
  if (!body.bytes) return undefined;
  const text = body.bytes.toString("utf8");
  const looksJson = isJsonType(body.contentType) || /^\s*[{[]/.test(text);
  if (!looksJson) return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    if (!isJsonType(body.contentType)) return undefined;
    throw new ParseFailure(`body is labelled JSON but does not parse: ${(error as Error).message}`);
  }
}
