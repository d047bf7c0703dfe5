/**
 * Changes a test or demo adds with known content: the admin route's and the in-process API's
 * input, checked field by field into what the history stores.
 */
import { isValidDate } from "../dates.ts";
import type { AddedChange, GivenValue } from "./changes.ts";
import { EXPLICIT_SEQ_BASE } from "./changes.ts";

export interface ExplicitChange {
  tax_id: string;
  /** The change's date, YYYY-MM-DD. */
  change: string;
  chapter: string;
  /** The headings the change lists; taken from `values` when left out. */
  changed_headings?: string[];
  /**
   * Exact file content, in file order; a heading may come twice ([A→B, B→C]). An entry without
   * `old_value` is written without it; `label` is written beside the values as given.
   */
  values?: Array<{ heading: string; old_value?: unknown; new_value?: unknown; label?: string }>;
  /** `shared`: the form's file of the day; `own`: a file of its own. Default: what the world says. */
  file?: "own" | "shared";
  /** The number listing and the own file's name use (100 and up); default the next free one. */
  seq?: number;
  /** Its own file is served with a body of an unknown layout (needs `file: "own"` where files are shared). */
  unreadable?: boolean;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The change to store, or throws an Error naming the first bad field. */
export function addedChange(input: ExplicitChange, sharedByDefault: boolean): AddedChange {
  if (!isObject(input)) throw new Error("a change must be a JSON object");
  if (typeof input.change !== "string" || !isValidDate(input.change))
    throw new Error(`change must be a date as YYYY-MM-DD, not "${String(input.change)}"`);
  if (typeof input.chapter !== "string" || input.chapter === "")
    throw new Error("chapter must be a non-empty string");
  const values = input.values === undefined ? undefined : givenValues(input.values);
  const headings =
    input.changed_headings ?? (values ? [...new Set(values.map((v) => v.heading))] : undefined);
  if (!Array.isArray(headings) || !headings.every((h) => typeof h === "string")) {
    throw new Error("changed_headings must be an array of strings (or give values)");
  }
  if (input.file !== undefined && input.file !== "own" && input.file !== "shared")
    throw new Error(`file must be "own" or "shared", not "${String(input.file)}"`);
  if (input.seq !== undefined && !(Number.isInteger(input.seq) && input.seq >= EXPLICIT_SEQ_BASE))
    throw new Error(`seq must be an integer of at least ${EXPLICIT_SEQ_BASE}`);
  if (input.unreadable !== undefined && typeof input.unreadable !== "boolean")
    throw new Error("unreadable must be true or false");
  const shared = input.file === undefined ? sharedByDefault : input.file === "shared";
  if (input.unreadable && shared) throw new Error('unreadable needs a file of its own: give file "own"');
  return {
    date: input.change,
    chapter: input.chapter,
    headings: [...headings],
    ...(values ? { values } : {}),
    shared,
    ...(input.seq !== undefined ? { seq: input.seq } : {}),
    ...(input.unreadable ? { unreadable: true } : {}),
  };
}

function givenValues(raw: unknown): GivenValue[] {
  if (!Array.isArray(raw) || raw.length === 0)
    throw new Error("values must be a non-empty array of {heading, old_value, new_value}");
  return raw.map((v, i) => {
    if (!isObject(v) || typeof v.heading !== "string" || v.heading === "")
      throw new Error(`values[${i}].heading must be a non-empty string`);
    if (v.label !== undefined && typeof v.label !== "string")
      throw new Error(`values[${i}].label must be a string`);
    return {
      heading: v.heading,
      ...("old_value" in v ? { old_value: v.old_value ?? null } : {}),
      new_value: v.new_value ?? null,
      ...(v.label !== undefined ? { label: v.label } : {}),
    };
  });
}
