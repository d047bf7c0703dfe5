/**
 * Download of one change file for the file phase. Paths may be absolute or relative (resolved
 * against the watch address); only the allowed origins are ever contacted, redirects included
 * (at most MAX_REDIRECTS, each target checked), and the API key goes only to the watch
 * interface's own origin (the HttpClient adds it per request, by origin). The body is either
 * handed on as it arrives (`streamFile`, what the file phase uses) or read into memory under the
 * file cap (REGWATCH_MAX_FILE_BYTES, `downloadFile`).
 */
import type { BodyCap } from "./body.ts";
import { ApiError } from "./errors.ts";
import type { HttpClient } from "./http.ts";

export const MAX_REDIRECTS = 3;
const REDIRECTS: readonly number[] = [301, 302, 303, 307, 308];
const ENDPOINT = "GET /files";

export interface FileDownloadOptions {
  /** The watch address (REGWATCH_WATCH_URL) relative paths resolve against. */
  baseUrl: string;
  /** Origins (scheme://host[:port]) files may come from (REGWATCH_FILE_ORIGINS). */
  allowedOrigins: readonly string[];
  /** REGWATCH_MAX_FILE_BYTES. */
  maxBytes: number;
  signal?: AbortSignal;
}

export interface DownloadedFile {
  /** The URL the body finally came from (after redirects). */
  url: string;
  status: number;
  contentType: string | null;
  body: Buffer;
  redirects: number;
}

/** A path that must not be fetched: not a URL, not http(s), or outside the allowed origins. */
export class RefusedFileError extends ApiError {
  constructor(message: string) {
    super("REFUSED_ORIGIN", message, { endpoint: ENDPOINT });
  }
}

/**
 * Resolves a change file's path to the URL to fetch, or throws RefusedFileError naming why.
 * Pure: the file phase can also call it to re-check refused rows against today's origins.
 */
export function resolveFileUrl(path: string, baseUrl: string, allowedOrigins: readonly string[]): URL {
  let url: URL;
  try {
    // A base ending without "/" would drop its last segment; the watch address is a directory.
    url = new URL(path, baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`);
  } catch {
    throw new RefusedFileError(`path ${JSON.stringify(path.slice(0, 200))} is not a URL`);
  }
  checkAllowed(url, allowedOrigins);
  return url;
}

function checkAllowed(url: URL, allowedOrigins: readonly string[]): void {
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new RefusedFileError(`${url.protocol} URLs are not fetched, only http(s)`);
  }
  if (!allowedOrigins.includes(url.origin)) {
    throw new RefusedFileError(`origin ${url.origin} is not in REGWATCH_FILE_ORIGINS`);
  }
}

/** A change file's answer with its body still to be read (see `streamFile`). */
export interface StreamedFile {
  url: string;
  status: number;
  contentType: string | null;
  body: AsyncIterable<Buffer>;
  redirects: number;
}

/**
 * Fetches one change file, buffered under the cap. Throws RefusedFileError for a path or redirect
 * target outside the allowed origins (nothing is sent there), ApiError for anything else that
 * failed (after the HttpClient's retries; the cap and timeouts included).
 */
export async function downloadFile(
  http: HttpClient,
  path: string,
  options: FileDownloadOptions,
): Promise<DownloadedFile> {
  return streamFile(http, path, options, async (file) => {
    const chunks: Buffer[] = [];
    for await (const chunk of file.body) chunks.push(chunk);
    return {
      url: file.url,
      status: file.status,
      contentType: file.contentType,
      body: Buffer.concat(chunks),
      redirects: file.redirects,
    };
  });
}

/**
 * Fetches one change file and hands its body, as it arrives, to `consume` (called again from
 * the start when a transfer fails and is retried). Same rules and errors as `downloadFile`;
 * an error thrown by `consume` is passed on as it is.
 */
export async function streamFile<T>(
  http: HttpClient,
  path: string,
  options: FileDownloadOptions,
  consume: (file: StreamedFile) => Promise<T>,
): Promise<T> {
  let url = resolveFileUrl(path, options.baseUrl, options.allowedOrigins);
  const cap: BodyCap = { bytes: options.maxBytes, name: "REGWATCH_MAX_FILE_BYTES" };
  for (let redirects = 0; ; redirects++) {
    const answer = await http.stream<
      { done: true; value: T } | { done: false; status: number; target?: string }
    >(
      { method: "GET", url, endpoint: ENDPOINT, expect: [200, ...REDIRECTS], cap, signal: options.signal },
      async (response) => {
        if (REDIRECTS.includes(response.status)) {
          // A redirect's own body is small and of no use: read past it under the cap.
          for await (const _ of response.body);
          const location = response.headers.location;
          return {
            done: false,
            status: response.status,
            target: Array.isArray(location) ? location[0] : location,
          };
        }
        const header = response.headers["content-type"];
        const value = await consume({
          url: url.href,
          status: response.status,
          contentType: (Array.isArray(header) ? header[0] : header) ?? null,
          body: response.body,
          redirects,
        });
        return { done: true, value };
      },
    );
    if (answer.done) return answer.value;
    const target = answer.target;
    if (!target) {
      throw new ApiError("BAD_RESPONSE", `${ENDPOINT}: ${answer.status} redirect without a Location`, {
        endpoint: ENDPOINT,
        status: answer.status,
      });
    }
    if (redirects >= MAX_REDIRECTS) {
      throw new ApiError(
        "BAD_RESPONSE",
        `${ENDPOINT}: more than ${MAX_REDIRECTS} redirects, last to ${target}`,
        {
          endpoint: ENDPOINT,
          status: answer.status,
        },
      );
    }
    let next: URL;
    try {
      next = new URL(target, url);
    } catch {
      throw new RefusedFileError(`redirect to ${JSON.stringify(target.slice(0, 200))}, which is not a URL`);
    }
    try {
      checkAllowed(next, options.allowedOrigins);
    } catch (error) {
      throw new RefusedFileError(`redirect refused: ${(error as Error).message}`);
    }
    url = next;
  }
}
