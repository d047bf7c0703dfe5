/**
 * The change-file shape the bundled emulator serves (the registry's document defines none):
 * `{tax_id, business_form, date, chapter, changed_headings, changes: [{heading, old_value, new_value}]}`.
 * Read tolerantly: only `changes` decides the shape; other fields, their types and order are free;
 * a missing old_value (first registration) or new_value is null.
 */
import { jsonOf } from "./json-body.ts";
import { type ChangeFileParser, type HeadingValue, ParseFailure, type StoredBody } from "./types.ts";

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** One element of `changes`; shared by the whole-body and the server-side paths. */
function element(entry: unknown, i: number): HeadingValue {
  if (!isObject(entry)) throw new ParseFailure(`changes[${i}] is not an object`);
  const heading = entry.heading;
  if (typeof heading !== "string" || heading.trim() === "") {
    throw new ParseFailure(`changes[${i}].heading is not a non-empty string`);
  }
  return { heading: heading.trim(), oldValue: entry.old_value ?? null, newValue: entry.new_value ?? null };
}

function parse(body: StoredBody): HeadingValue[] | null {
  const json = jsonOf(body);
  if (!isObject(json) || !Array.isArray(json.changes)) return null;
  // An array of objects none of which names a heading is some other document that happens to use the word.
  if (json.changes.length > 0 && !json.changes.some((c) => isObject(c) && "heading" in c)) return null;
  return json.changes.map(element);
}

export const changesJsonParser: ChangeFileParser = {
  name: "changes-json-v1",
  parse,
  extraction: { key: "changes", marker: "heading", element },
};
