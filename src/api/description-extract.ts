/**
 * What a description says of the changes operation (GET /v2/lists/{list_key}/changes), read
 * with @readme/openapi-parser: the document is validated against the OpenAPI (or Swagger)
 * specification and its internal references resolved (never an external one: a description
 * could point them at any address), then the operation's query parameters are read. Also the
 * addresses a Swagger UI or ReDoc page loads its description from.
 */
import type { ChangesParams } from "./description-outcome.ts";

/** Longest the parser may spend resolving one document's references. */
const PARSE_TIME_MS = 10_000;
/** What a query parameter's name may be before it is put into requests (as REGWATCH_CHANGES_*_PARAM). */
const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_.\-[\]]{0,99}$/;
/** Names of a page-number parameter; a page size (`page_size`, `per_page`) is not one. */
const PAGE_NAMES = new Set(["page", "pageno", "pagenum", "pagenumber", "pageindex", "p"]);
const DATE_FORMATS = new Set(["date", "date-time"]);

export type Extracted = { ok: true; params: ChangesParams } | { ok: false; problem: string };

type Json = Record<string, unknown>;

/** Reads the changes operation's parameters from a parsed JSON document. */
export async function extractChangesParams(document: unknown): Promise<Extracted> {
  if (!isObject(document) || (typeof document.openapi !== "string" && typeof document.swagger !== "string"))
    return { ok: false, problem: "is not an OpenAPI description (no openapi or swagger version field)" };
  const options = {
    resolve: { external: false, file: false },
    dereference: { circular: "ignore" as const },
    timeoutMs: PARSE_TIME_MS,
    // Checks beyond the specification's own schema say nothing about the parameters read here.
    validate: {
      rules: {
        openapi: {
          "array-without-items": "warning",
          "duplicate-operation-id": "warning",
          "path-parameters-not-in-parameters": "warning",
          "path-parameters-not-in-path": "warning",
        },
      },
    },
  } as const;
  let resolved: unknown;
  try {
    // Loaded only when a description is read (at most daily): the parser and its schema
    // validator are most of a run's code by size.
    const { dereference, validate } = await import("@readme/openapi-parser");
    // Both calls change the object they are given: each gets its own copy.
    const checked = await validate(structuredClone(document) as never, options);
    if (!checked.valid) {
      const first = checked.errors[0]?.message.split("\n")[0] ?? "invalid";
      return { ok: false, problem: `is not a valid OpenAPI description (${first.slice(0, 200)})` };
    }
    resolved = await dereference(structuredClone(document) as never, options);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, problem: `could not be parsed (${message.replace(/\s+/g, " ").slice(0, 200)})` };
  }
  return readOperation(resolved as Json);
}

function readOperation(document: Json): Extracted {
  const paths = isObject(document.paths) ? document.paths : {};
  const changesPaths = Object.keys(paths).filter((p) => /(^|\/)lists\/\{[^/{}]+\}\/changes\/?$/.test(p));
  const path = changesPaths.find((p) => /\/v2\/lists\//.test(p)) ?? changesPaths[0];
  const item = path === undefined ? undefined : paths[path];
  const operation = isObject(item) && isObject(item.get) ? item.get : undefined;
  if (!isObject(item) || !operation)
    return { ok: false, problem: "has no changes operation (GET /v2/lists/{list_key}/changes)" };
  const query = queryParameters(item.parameters, operation.parameters);
  const dated = query.filter((p) => dateFormatOf(p) !== undefined);
  if (dated.length < 2) {
    const names = dated.map((p) => p.name).join(", ");
    return {
      ok: false,
      problem:
        `names ${dated.length} query parameter(s) with a date format on ${path}` +
        `${names ? ` (${names})` : ""}; two (the interval's first and last day) are needed`,
    };
  }
  const from = dated[0]!;
  const to = dated[dated.length - 1]!;
  for (const p of [from, to]) {
    if (!PARAM_NAME.test(p.name))
      return {
        ok: false,
        problem: `names a date parameter ${JSON.stringify(p.name.slice(0, 100))}, not a usable name`,
      };
  }
  const params: ChangesParams = { from: from.name, to: to.name };
  const page = query.find(
    (p) => !dated.includes(p) && isInteger(p) && PAGE_NAMES.has(p.name.toLowerCase().replace(/[_-]/g, "")),
  );
  if (page && PARAM_NAME.test(page.name)) params.page = page.name;
  const format = dateFormatOf(to);
  const pattern = schemaOf(to).pattern;
  params.dateFormat = typeof pattern === "string" ? `${format} (pattern ${pattern.slice(0, 100)})` : format;
  const inclusive =
    inclusivity(textOf(to.description) ?? textOf(schemaOf(to).description)) ??
    endInclusivity(`${textOf(operation.description) ?? ""} ${textOf(operation.summary) ?? ""}`);
  if (inclusive !== undefined) params.endInclusive = inclusive;
  return { ok: true, params };
}

interface Parameter extends Json {
  name: string;
  in: string;
}

/** The operation's query parameters in their order, the path item's first unless the operation redefines them. */
function queryParameters(pathLevel: unknown, operationLevel: unknown): Parameter[] {
  const list = (value: unknown): Parameter[] =>
    Array.isArray(value)
      ? value.filter(
          (p): p is Parameter => isObject(p) && typeof p.name === "string" && typeof p.in === "string",
        )
      : [];
  const own = list(operationLevel);
  const inherited = list(pathLevel).filter((p) => !own.some((o) => o.name === p.name && o.in === p.in));
  return [...inherited, ...own].filter((p) => p.in === "query");
}

/** A parameter's schema (OpenAPI 3), or the parameter itself (Swagger 2 puts type and format on it). */
function schemaOf(parameter: Json): Json {
  return isObject(parameter.schema) ? parameter.schema : parameter;
}

/** `date` or `date-time` when the parameter's schema (or one of its alternatives, as FastAPI writes an optional date) has it. */
function dateFormatOf(parameter: Json): string | undefined {
  return findInSchema(schemaOf(parameter), (s) =>
    typeof s.format === "string" && DATE_FORMATS.has(s.format) ? s.format : undefined,
  );
}

function isInteger(parameter: Json): boolean {
  return findInSchema(schemaOf(parameter), (s) => (s.type === "integer" ? true : undefined)) === true;
}

/** The first answer of `test` on a schema or its anyOf/oneOf/allOf alternatives, a few levels down. */
function findInSchema<T>(schema: Json, test: (s: Json) => T | undefined, depth = 0): T | undefined {
  const own = test(schema);
  if (own !== undefined || depth >= 3) return own;
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    const alternatives = schema[key];
    if (!Array.isArray(alternatives)) continue;
    for (const alternative of alternatives.slice(0, 20)) {
      if (!isObject(alternative)) continue;
      const found = findInSchema(alternative, test, depth + 1);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** What a parameter's own description says of its day: excluded or included. */
function inclusivity(text: string | undefined): boolean | undefined {
  if (!text) return undefined;
  if (/\b(exclusive|excluded|not included)\b/i.test(text)) return false;
  if (/\b(inclusive|included)\b/i.test(text)) return true;
  return undefined;
}

/** What an operation's text says of the interval's end (it may speak of other things as well). */
function endInclusivity(text: string): boolean | undefined {
  if (/\b(end|last day|to)\b[^.]{0,40}\b(exclusive|excluded|not included)\b/i.test(text)) return false;
  if (/\b(both ends?|end|last day)\b[^.]{0,40}\b(inclusive|included)\b/i.test(text)) return true;
  if (/\binclusive\b[^.]{0,20}\bboth\b/i.test(text)) return true;
  return undefined;
}

function textOf(value: unknown): string | undefined {
  return typeof value === "string" ? value.slice(0, 2000) : undefined;
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Addresses a documentation page loads its description from, resolved against the page's own
 * address: Swagger UI's `url: '/openapi.json'` (FastAPI's page), ReDoc's `spec-url="..."`, and any
 * quoted address ending in `openapi.json`. At most `limit`, in the order found, without repeats.
 */
export function referencedDescriptions(html: string, pageUrl: string, limit = 3): string[] {
  const found: string[] = [];
  const patterns = [
    /\burl\s*:\s*(["'`])([^"'`\s]{1,2048})\1/g,
    /\bspec-url\s*=\s*(["'])([^"'\s]{1,2048})\1/g,
    /(["'])([^"'\s]{0,2000}openapi\.json)\1/g,
  ];
  for (const pattern of patterns) {
    for (const match of html.slice(0, 1_000_000).matchAll(pattern)) {
      let url: string;
      try {
        url = new URL(match[2]!, pageUrl).toString();
      } catch {
        continue;
      }
      if (!/^https?:/.test(url) || found.includes(url)) continue;
      found.push(url);
      if (found.length >= limit) return found;
    }
  }
  return found;
}
