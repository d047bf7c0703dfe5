/** The JSON value of a stored body, whether it was kept as jsonb or as bytes (see src/sync/file-body.ts). */

import { jsonTooDeep } from "../json-depth.ts";
import { decodeBody } from "./decode.ts";
import { ParseFailure, type StoredBody } from "./types.ts";

const JSON_TYPE = /[/+]json\b/i;

export function isJsonType(contentType: string | null): boolean {
  return contentType !== null && JSON_TYPE.test(contentType);
}

/**
 * undefined when the body is not JSON; throws ParseFailure when it claims to be JSON (by its
 * content type) but cannot be decoded by its charset or does not parse. Bytes are decoded by
 * the declared charset, so a Windows-1250 body reads as the registry wrote it.
 */
export function jsonOf(body: StoredBody): unknown {
  if (body.json !== null && body.json !== undefined) return body.json;
  if (!body.bytes) return undefined;
  const labelled = isJsonType(body.contentType);
  const decoded = decodeBody(body.bytes, body.contentType);
  if ("error" in decoded) {
    if (labelled) throw new ParseFailure(decoded.error);
    return undefined;
  }
  if (!labelled && !/^\s*[{[]/.test(decoded.text)) return undefined;
  // Measured before parsing: a parsed value nested this deep could not be walked or stored.
  const tooDeep = jsonTooDeep(decoded.text);
  if (tooDeep) throw new ParseFailure(tooDeep);
  try {
    return JSON.parse(decoded.text);
  } catch (error) {
    if (!labelled) return undefined;
    throw new ParseFailure(`body is labelled JSON but does not parse: ${(error as Error).message}`);
  }
}
