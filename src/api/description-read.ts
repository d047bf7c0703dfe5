/**
 * Finding the registry's description. The document puts it at `{watch_base_url}/docs`, which on a
 * FastAPI server is a Swagger UI page that loads the JSON from `openapi.json` (at the application's
 * root, or under its prefix): the page is read for what it references, then the usual places are
 * tried. Every request goes through the watch interface's paced client (its rate budget, never
 * the search quota), only to the watch origin (the key is sent nowhere else, and a page cannot
 * send regwatch to another host), under the client's byte cap (REGWATCH_MAX_RESPONSE_BYTES) and
 * timeouts, with a nesting bound and a bound on the whole search.
 */
import { createHash } from "node:crypto";
import { interfaceBase } from "../config-url.ts";
import { decodeJson } from "./body.ts";
import { extractChangesParams, referencedDescriptions } from "./description-extract.ts";
import type { DescriptionOutcome } from "./description-outcome.ts";
import { ApiError } from "./errors.ts";
import type { HttpClient, HttpResponse } from "./http.ts";

/** Deeper than any description FastAPI writes; a deeper one is refused before it is parsed. */
export const MAX_DESCRIPTION_DEPTH = 64;
/** Longest the whole search may take, every request and the parsing included. */
export const DESCRIPTION_TIME_MS = 120_000;
/** Most addresses asked for a description in one search (the page, what it references, the usual places). */
const MAX_TRIES = 6;

const PAGE_ENDPOINT = "GET /v2/docs";
const JSON_ENDPOINT = "GET openapi.json";

type Fetched =
  | { kind: "ok"; response: HttpResponse }
  | { kind: "missing"; problem: string }
  | { kind: "failed"; problem: string; transient: boolean };

export async function discoverDescription(
  http: HttpClient,
  watchBase: URL | string,
  options: { signal?: AbortSignal; today?: string; timeMs?: number } = {},
): Promise<DescriptionOutcome> {
  const base = interfaceBase(String(watchBase), "v2");
  const origin = new URL(base.versioned).origin;
  const deadline = AbortSignal.timeout(options.timeMs ?? DESCRIPTION_TIME_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  const tried: string[] = [];
  const problems: string[] = [];
  let transient = false;
  const today = options.today ?? new Date().toISOString().slice(0, 10);

  const fetch = async (url: string, endpoint: string): Promise<Fetched> => {
    tried.push(url);
    try {
      const response = await http.request({ method: "GET", url: new URL(url), endpoint, signal });
      return { kind: "ok", response };
    } catch (error) {
      if (options.signal?.aborted) throw error;
      if (deadline.aborted) throw new DeadlinePassed();
      if (!(error instanceof ApiError)) throw error;
      const status = error.status;
      if (status !== undefined && status >= 400 && status < 500 && ![401, 403, 429].includes(status))
        return { kind: "missing", problem: `${url}: ${status}` };
      const retryable = status === undefined || status >= 500 || status === 429;
      return { kind: "failed", problem: `${url}: ${error.message}`, transient: retryable };
    }
  };

  /** A found outcome, or the problem with what `url` served. */
  const read = async (url: string, response: HttpResponse): Promise<DescriptionOutcome | undefined> => {
    let document: unknown;
    try {
      document = decodeJson(response.body, { endpoint: url, status: response.status }, MAX_DESCRIPTION_DEPTH);
    } catch (error) {
      problems.push(`${url}: ${error instanceof Error ? error.message.replace(`${url}: `, "") : error}`);
      return undefined;
    }
    const extracted = await extractChangesParams(document);
    if (!extracted.ok) {
      problems.push(`${url}: the description ${extracted.problem}`);
      return undefined;
    }
    const sha256 = createHash("sha256").update(response.body).digest("hex");
    return { status: "found", url, sha256, readOn: today, params: extracted.params };
  };

  try {
    const pageUrl = `${base.versioned}/docs`;
    const candidates: string[] = [];
    const page = await fetch(pageUrl, PAGE_ENDPOINT);
    if (page.kind === "ok") {
      const text = page.response.body.toString("utf8");
      if (/^\s*\{/.test(text)) {
        // Some servers answer /docs with the description itself.
        const found = await read(pageUrl, page.response);
        if (found) return found;
      } else {
        for (const url of referencedDescriptions(text, pageUrl)) {
          if (new URL(url).origin === origin) candidates.push(url);
          else
            problems.push(
              `${pageUrl} references ${url}, on another origin than the watch interface: not followed`,
            );
        }
        if (candidates.length === 0 && !problems.length)
          problems.push(`${pageUrl}: the page references no description (no url: '...openapi.json')`);
      }
    } else if (page.kind === "failed") {
      problems.push(page.problem);
      transient ||= page.transient;
    }
    candidates.push(`${base.versioned}/openapi.json`, `${base.root}/openapi.json`, `${origin}/openapi.json`);
    for (const url of [...new Set(candidates)]) {
      if (tried.length >= MAX_TRIES) break;
      if (tried.includes(url)) continue;
      const answer = await fetch(url, JSON_ENDPOINT);
      if (answer.kind === "missing") continue;
      if (answer.kind === "failed") {
        problems.push(answer.problem);
        transient ||= answer.transient;
        continue;
      }
      const found = await read(url, answer.response);
      if (found) return found;
    }
  } catch (error) {
    if (!(error instanceof DeadlinePassed)) throw error;
    problems.push(
      `no description was read within ${Math.round((options.timeMs ?? DESCRIPTION_TIME_MS) / 1000)} s`,
    );
    transient = true;
  }
  if (problems.length === 0) {
    return {
      status: "absent",
      tried,
      problem: `no description is served: each of the ${tried.length} addresses tried answered not found`,
    };
  }
  return { status: "unreadable", tried, problem: problems.join("; "), ...(transient ? { transient } : {}) };
}

class DeadlinePassed extends Error {}
