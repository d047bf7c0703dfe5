import { RegwatchError } from "../errors.ts";
import { redactSecrets } from "../secrets.ts";
import type { ApiErrorCode } from "./retry.ts";

/**
 * A registry request that failed; `status` is the HTTP status when there was one. The message is
 * scrubbed of every registered secret when the error is built: a server may echo the key back in
 * its error body, and the message travels to logs, run rows and file errors from here.
 */
export class ApiError extends RegwatchError {
  declare readonly code: ApiErrorCode;
  readonly status: number | undefined;
  readonly endpoint: string;
  readonly retryAfterMs: number | undefined;
  readonly attempts: number;

  constructor(
    code: ApiErrorCode,
    message: string,
    details: { endpoint: string; status?: number; retryAfterMs?: number; attempts?: number; cause?: unknown },
  ) {
    super(code, redactSecrets(message), { cause: details.cause });
    this.status = details.status;
    this.endpoint = details.endpoint;
    this.retryAfterMs = details.retryAfterMs;
    this.attempts = details.attempts ?? 1;
  }
}

/**
 * Short description of an error body: a FastAPI validation answer (`{"detail": [{"loc", "msg"}]}`)
 * as one clause per problem naming the parameter (`query parameter date_from: Field required`),
 * `{"detail": "..."}` and the JSON `message` as they are, else the text, cut. Everything comes
 * from the server: bounded, control characters flattened.
 */
export function describeBody(body: Buffer | string): string {
  const text = typeof body === "string" ? body : body.toString("utf8");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch {
    parsed = undefined;
  }
  if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
    const fields = parsed as Record<string, unknown>;
    if (typeof fields.message === "string") return flat(fields.message, 300);
    const detail = describeDetail(fields.detail);
    if (detail) return detail;
  }
  return flat(text, 200);
}

const MAX_DETAILS = 5;

/** FastAPI's `detail`: a string, or a list of validation problems each with a location and a message. */
function describeDetail(detail: unknown): string | undefined {
  if (typeof detail === "string") return flat(detail, 300);
  if (!Array.isArray(detail) || detail.length === 0) return undefined;
  const clauses = detail.slice(0, MAX_DETAILS).map((entry) => {
    if (!entry || typeof entry !== "object") return flat(String(entry), 100);
    const { loc, msg } = entry as { loc?: unknown; msg?: unknown };
    const message = typeof msg === "string" ? flat(msg, 150) : "is invalid";
    return `${describeLocation(loc)}: ${message}`;
  });
  const more = detail.length > MAX_DETAILS ? `; ${detail.length - MAX_DETAILS} more` : "";
  return `${clauses.join("; ")}${more}`;
}

const PLACES: Record<string, string> = {
  query: "query parameter",
  path: "path parameter",
  header: "header",
  cookie: "cookie",
  body: "body field",
};

/** `["query", "date_from"]` → `query parameter date_from`; `["body", "tax_ids", 0]` → `body field tax_ids.0`. */
function describeLocation(loc: unknown): string {
  if (!Array.isArray(loc) || loc.length === 0) return "request";
  const parts = loc
    .slice(0, 8)
    .filter((p): p is string | number => typeof p === "string" || typeof p === "number");
  const [first, ...rest] = parts.map((p) => flat(String(p), 60));
  if (first === undefined) return "request";
  const place = PLACES[first];
  if (!place) return parts.map((p) => flat(String(p), 60)).join(".");
  return rest.length > 0 ? `${place} ${rest.join(".")}` : first === "body" ? "body" : place;
}

/** Whitespace and control characters as single spaces, cut to `max` characters. */
function flat(text: string, max: number): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
  const clean = text.replace(/[\s\u0000-\u001f\u007f]+/g, " ").trim();
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}
