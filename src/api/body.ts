/**
 * Reading and decoding response bodies under bounds the server cannot move: a byte cap checked
 * against the declared length and while reading, strict UTF-8, and a nesting bound checked on the
 * raw text before JSON.parse (a deeply nested answer would otherwise exhaust the stack of every
 * recursive walk after it: validation, redaction, jsonb encoding).
 */
import { JsonDepthMeter } from "../json-depth.ts";
import { ApiError } from "./errors.ts";

/** Deeper than any answer of the registry; far below what recursion in V8 survives. */
export const MAX_JSON_DEPTH = 256;

export interface BodyCap {
  bytes: number;
  /** What sets the cap, named in the error (e.g. "REGWATCH_MAX_RESPONSE_BYTES"). */
  name: string;
}

interface ErrorContext {
  endpoint: string;
  status?: number;
  attempts?: number;
}

export function tooLarge(context: ErrorContext, cap: BodyCap, what: string): ApiError {
  return new ApiError(
    "TOO_LARGE",
    `${context.endpoint}: response ${what} exceeds the cap of ${cap.bytes} bytes (${cap.name})`,
    context,
  );
}

/** Refuses a declared Content-Length above the cap before a byte of the body is read. */
export function checkDeclaredLength(
  header: string | string[] | undefined,
  cap: BodyCap,
  context: ErrorContext,
): void {
  const raw = Array.isArray(header) ? header[0] : header;
  if (raw === undefined || !/^\d+$/.test(raw.trim())) return;
  const declared = Number(raw.trim());
  if (declared > cap.bytes) throw tooLarge(context, cap, `of ${declared} bytes (declared)`);
}

/** A response body as it arrives: read chunk by chunk, or dropped. */
export interface BodyStream extends AsyncIterable<Uint8Array> {
  destroy(error?: Error): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
}

/** Drops a body not to be read; the stream's abort error is expected and swallowed. */
export function discard(body: BodyStream): void {
  body.on("error", () => {});
  body.destroy();
}

/** Decodes UTF-8 strictly: an invalid sequence is an error, never a silent U+FFFD. */
export function decodeUtf8(body: Uint8Array, context: ErrorContext): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(body);
  } catch (cause) {
    throw new ApiError("BAD_ENCODING", `${context.endpoint}: response body is not valid UTF-8`, {
      ...context,
      cause,
    });
  }
}

/**
 * Deepest nesting of arrays and objects in JSON text, counted outside strings; stops counting
 * once `limit` is passed. Linear, no recursion (JsonDepthMeter).
 */
export function jsonDepth(text: string, limit = Number.POSITIVE_INFINITY): number {
  const meter = new JsonDepthMeter(limit);
  meter.update(text);
  return meter.deepest;
}

/** Strict UTF-8, bounded nesting, then JSON.parse; each failure is a named BAD_RESPONSE-family error. */
export function decodeJson(body: Uint8Array, context: ErrorContext, maxDepth = MAX_JSON_DEPTH): unknown {
  const text = decodeUtf8(body, context);
  if (jsonDepth(text, maxDepth) > maxDepth) {
    throw new ApiError(
      "TOO_DEEP",
      `${context.endpoint}: response JSON is nested deeper than ${maxDepth} levels`,
      context,
    );
  }
  try {
    return JSON.parse(text);
  } catch (cause) {
    const excerpt = text.replace(/\s+/g, " ").trim().slice(0, 200);
    throw new ApiError("BAD_RESPONSE", `${context.endpoint}: response is not valid JSON (${excerpt})`, {
      ...context,
      cause,
    });
  }
}
