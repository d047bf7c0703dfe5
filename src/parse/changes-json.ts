/**
 * The change-file shape regwatch reads (the registry's document defines none), in two forms:
 * - one business per file, as the bundled emulator first served it:
 *   `{tax_id, business_form, date, chapter, changed_headings, changes: [{heading, old_value, new_value}]}`
 * - one file per business form and day, shared by every business changed that day:
 *   `{date, business_form, changes: [{tax_id, chapter, heading, old_value, new_value}, …]}`
 * An entry's own tax_id and chapter win; a top-level one applies to entries naming none.
 *
 * The body is claimed only when every entry carries `heading` and `new_value`: a removal is
 * `new_value: null`, never a missing key. An entry may leave `old_value` out (files do so for a
 * heading with no earlier value, often with a person's `label` beside the values): its new value
 * is kept and its old value is unknown, neither a known null ("there was nothing before") nor
 * anything guessed from another field, which may word the old value in a way regwatch cannot read.
 */
import { normaliseTaxId } from "../taxid.ts";
import { jsonOf } from "./json-body.ts";
import {
  type ChangeFileParser,
  type EntryDefaults,
  type HeadingValue,
  ParseFailure,
  type StoredBody,
  type Unrecognised,
} from "./types.ts";

const REQUIRED = ["heading", "new_value"] as const;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The business an entry names, as a tax base number. An entry's tax id that is neither a base
 * number nor a tax number is kept as written: it matches no change, so the entry is nobody's
 * (one odd entry of a shared file does not fail every business's values); the file's own tax id
 * must be readable, or the file is broken.
 */
function taxIdOf(value: unknown, where: string): string | null {
  if (value === undefined || value === null) return null;
  const text = typeof value === "number" ? String(value) : value;
  const taxId = typeof text === "string" ? normaliseTaxId(text) : undefined;
  if (taxId) return taxId;
  if (where === "the file")
    throw new ParseFailure("the file's tax_id is not a tax base number or tax number");
  return `unreadable: ${JSON.stringify(value).slice(0, 40)}`;
}

function chapterOf(value: unknown, where: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "string" && value.trim() !== "") return value.trim();
  throw new ParseFailure(`${where}.chapter is not a non-empty string or a number`);
}

function defaults(top: Record<string, unknown>): EntryDefaults {
  return { taxId: taxIdOf(top.tax_id, "the file"), chapter: chapterOf(top.chapter, "the file") };
}

/** Why an element is not of this shape, or null when it is. */
function unfamiliar(entry: unknown, where: string): string | null {
  if (!isObject(entry)) return `${where} is not an object`;
  const absent = REQUIRED.filter((key) => !(key in entry));
  if (absent.length > 0) {
    const keys = Object.keys(entry).slice(0, 8).join(", ") || "none";
    return `${where} has no ${absent.join(" or ")} (its keys: ${keys})`;
  }
  return null;
}

function read(entry: Record<string, unknown>, where: string, base: EntryDefaults): HeadingValue {
  const heading = entry.heading;
  if (typeof heading !== "string" || heading.trim() === "") {
    throw new ParseFailure(`${where}.heading is not a non-empty string`);
  }
  return {
    heading: heading.trim(),
    oldValue: entry.old_value ?? null,
    ...("old_value" in entry ? {} : { oldUnknown: true as const }),
    newValue: entry.new_value ?? null,
    taxId: taxIdOf(entry.tax_id, where) ?? base.taxId,
    chapter: chapterOf(entry.chapter, where) ?? base.chapter,
  };
}

/** One element of `changes`, as the server-side path reads it. */
function element(entry: unknown, i: number, base: EntryDefaults): HeadingValue | Unrecognised {
  const where = `changes[${i}]`;
  const problem = unfamiliar(entry, where);
  return problem ? { unrecognised: problem } : read(entry as Record<string, unknown>, where, base);
}

function parse(body: StoredBody): HeadingValue[] | Unrecognised | null {
  const json = jsonOf(body);
  if (!isObject(json) || !Array.isArray(json.changes)) return null;
  if (json.changes.length === 0) {
    return { unrecognised: "changes is empty: the file gives no heading's values" };
  }
  // Every entry is looked at before any is read, so a body of another shape is never "failed".
  for (const [i, entry] of json.changes.entries()) {
    const problem = unfamiliar(entry, `changes[${i}]`);
    if (problem) return { unrecognised: problem };
  }
  const base = defaults(json);
  return json.changes.map((entry, i) => read(entry as Record<string, unknown>, `changes[${i}]`, base));
}

export const changesJsonParser: ChangeFileParser = {
  name: "changes-json-v1",
  parse,
  extraction: { key: "changes", required: REQUIRED, defaults, element },
};
