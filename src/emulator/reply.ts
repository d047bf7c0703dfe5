/** What a handler answers, before faults and latency shape how it is sent. */
export interface Reply {
  status: number;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as it is, instead of `body` (an HTML page); with its content type. */
  text?: { content: string; contentType: string };
  headers?: Record<string, string>;
}

export function json(status: number, body: unknown, headers?: Record<string, string>): Reply {
  return headers ? { status, body, headers } : { status, body };
}

/** Every error of the emulator has this shape: `{ message }`. */
export function failure(status: number, message: string, headers?: Record<string, string>): Reply {
  return json(status, { message }, headers);
}

/** Parses a JSON request body that must be an object; a string is the problem to report. */
export function parseObjectBody(text: string): Record<string, unknown> | string {
  if (text.trim() === "") return "a JSON body is required";
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === "object" && value !== null && !Array.isArray(value))
      return value as Record<string, unknown>;
    return "the body must be a JSON object";
  } catch {
    return "the body is not valid JSON";
  }
}
