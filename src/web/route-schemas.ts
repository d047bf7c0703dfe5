/**
 * What each console route accepts, as JSON schemas Fastify checks before a handler runs (its own
 * validation, ajv): a path segment, a query value or a form field that is too long, of the wrong
 * shape or holding a control character (NUL, CR, LF...) is a 400 naming the field, so no malformed
 * value reaches a handler or the database. The pages still check what the values mean (a real
 * date, a known list) and name those problems themselves. Pure data and one formatter.
 */
import type { FastifySchema, FastifySchemaValidationError } from "fastify";

/** One line of text: no control character at all. */
const ONE_LINE = "^[^\\u0000-\\u001f\\u007f]*$";
/** Text typed in a box (a note): line breaks and tabs allowed, other control characters not. */
const TYPED_TEXT = "^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f]*$";

export const line = (maxLength: number) => ({ type: "string", maxLength, pattern: ONE_LINE }) as const;
export const typedText = (maxLength: number) => ({ type: "string", maxLength, pattern: TYPED_TEXT }) as const;
/** A value that may be given once or repeated (`?list=a&list=b`): always read as a list. */
export const repeated = (maxLength: number, maxItems = 50) =>
  ({ type: "array", maxItems, items: line(maxLength) }) as const;

/** A value from a query string, once or repeated: how a query name the route does not know is checked. */
const ANY_QUERY_VALUE = { anyOf: [line(2000), repeated(2000, 100)] } as const;

/** A query string with these names; any other name is allowed but held to the same rules. */
export function query(properties: Record<string, object> = {}) {
  return { type: "object", properties, additionalProperties: ANY_QUERY_VALUE } as const;
}

/** A form body with these fields (others are dropped) and the fields every form carries. */
export function form(properties: Record<string, object>, required: string[] = []) {
  return {
    type: "object",
    properties: { _csrf: line(200), _account: line(200), ...properties },
    required,
    additionalProperties: false,
  } as const;
}

export const PAGE = line(12);
/** An id as the database counts them (bigint), in decimal. */
export const DECIMAL_ID = { type: "string", pattern: "^\\d{1,15}$" } as const;

/** Routes that take nothing but an ordinary query string (ignored by the page, still checked). */
export const PLAIN_GET: FastifySchema = { querystring: query() };
/** POSTs without a form of their own beyond the CSRF token (sign-out). */
export const PLAIN_POST: FastifySchema = { querystring: query(), body: form({}) };

const WHERE: Record<string, string> = {
  body: "the form's",
  querystring: "the query's",
  params: "the address's",
  headers: "the header",
};

/** One sentence naming the field and what is wrong with it, for the 400 page. */
export function describeSchemaError(errors: FastifySchemaValidationError[], dataVar: string): Error {
  const first = errors[0];
  const path = (first?.instancePath ?? "").split("/").filter(Boolean);
  const missing = (first?.params as { missingProperty?: string } | undefined)?.missingProperty;
  const field = path[0] ?? missing ?? "";
  const where = `${WHERE[dataVar] ?? dataVar} ${field ? `"${field}"` : "value"}`;
  const pattern = (first?.params as { pattern?: string } | undefined)?.pattern;
  const why =
    first?.keyword === "pattern"
      ? pattern === ONE_LINE || pattern === TYPED_TEXT
        ? "holds a character that is not allowed there (a control character such as NUL, CR or LF)"
        : "is not in the expected form"
      : first?.keyword === "maxLength" || first?.keyword === "maxItems"
        ? "is too long"
        : first?.keyword === "required"
          ? "is missing"
          : (first?.message ?? "is not valid");
  return new Error(`Nothing was done: ${where} ${why}.`);
}
