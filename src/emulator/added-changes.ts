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
  /** Exact file content, in file order; a heading may come twice ([A→B, B→C]). */
  values?: Array<{ heading: string; old_value?: unknown; new_value?: unknown }>;
  /** `shared`: the form's file of the day; `own`: a file of its own. Default: what the world says. */
  file?: "own" | "shared";
  /** The number listing and the own file's name use (100 and up); default the next free one. */
  seq?: number;
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
  return {
    date: input.change,
    chapter: input.chapter,
    headings: [...headings],
    ...(values ? { values } : {}),
    shared: input.file === undefined ? sharedByDefault : input.file === "shared",
    ...(input.seq !== undefined ? { seq: input.seq } : {}),
  };
}

function givenValues(raw: unknown): GivenValue[] {
  if (!Array.isArray(raw) || raw.length === 0)
    throw new Error("values must be a non-empty array of {heading, old_value, new_value}");
  return raw.map((v, i) => {
    if (!isObject(v) || typeof v.heading !== "string" || v.heading === "")
      throw new Error(`values[${i}].heading must be a non-empty string`);
    return { heading: v.heading, old_value: v.old_value ?? null, new_value: v.new_value ?? null };
  });
}
