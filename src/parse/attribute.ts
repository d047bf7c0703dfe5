/**
 * Which change each entry of a change file belongs to. A file may be shared by several
 * businesses (one file per business form and day) and by several changes of one business (two
 * chapters of one day), so a value is given only where the entry says it belongs:
 * - an entry naming a business (its own tax_id or the file's) goes to that business's changes
 *   pointing at the file, and only to the one of its chapter when it names a chapter;
 * - an entry naming no business applies only when every change pointing at the file is of one
 *   business;
 * - a change takes values only for the headings it lists (changed_headings).
 * An entry naming no chapter while its business has two changes of the heading in the file goes
 * to both: the file says what the heading did that day, not which of the two it belongs to (the
 * same-day order then takes the two as one event). Entries about businesses that have no change
 * here are other people's: they are left alone.
 *
 * A heading given more than once for one change nets to its first old and last new value when
 * the values chain into one order (day-chain.ts); otherwise the value is kept, marked as not
 * known to be the net change. Pure.
 */
import { chainOrder } from "./day-chain.ts";
import type { HeadingValue } from "./types.ts";

/** A change pointing at the file, as stored. */
export interface FileChange {
  id: number;
  taxId: string;
  chapter: string;
  headings: readonly string[];
}

/** The values one change takes for one heading from the file. */
export interface AttributedValue {
  changeId: number;
  heading: string;
  oldValue: unknown;
  /** The file did not give the old value (oldValue is then null). */
  oldUnknown: boolean;
  newValue: unknown;
  /** The file gave the heading more than once and its values do not chain into one order. */
  fileOrderAmbiguous: boolean;
}

export interface Attribution {
  values: AttributedValue[];
  /** Why some change got no value for a heading it lists; empty when every one got its values. */
  missing: string[];
}

/** Whether an entry can give a value to one of the changes (what the paged path keeps). */
export function mayConcern(entry: HeadingValue, changes: readonly FileChange[]): boolean {
  const taxId = entry.taxId ?? null;
  return changes.some(
    (c) =>
      (taxId === null || c.taxId === taxId) &&
      c.headings.includes(entry.heading) &&
      (entry.chapter == null || sameChapter(entry.chapter, c.chapter)),
  );
}

/** Changes (and headings) listed at most in a reason, so a message stays readable. */
const NAMED = 5;

function sameChapter(a: string, b: string): boolean {
  return a.trim() === b.trim();
}

/**
 * `namelessSkipped` counts entries naming no business that the caller already left out (the
 * paged path keeps only entries that can matter), so the reason still counts them.
 */
export function attribute(
  entries: readonly HeadingValue[],
  changes: readonly FileChange[],
  namelessSkipped = 0,
): Attribution {
  const businesses = [...new Set(changes.map((c) => c.taxId))];
  const steps = new Map<string, { changeId: number; heading: string; steps: HeadingValue[] }>();
  let nameless = namelessSkipped;
  for (const entry of entries) {
    const taxId = entry.taxId ?? (businesses.length === 1 ? businesses[0]! : null);
    if (taxId === null) {
      nameless++;
      continue;
    }
    for (const change of changes) {
      if (change.taxId !== taxId || !change.headings.includes(entry.heading)) continue;
      if (entry.chapter != null && !sameChapter(entry.chapter, change.chapter)) continue;
      const key = `${change.id}\u0000${entry.heading}`;
      const group = steps.get(key) ?? { changeId: change.id, heading: entry.heading, steps: [] };
      group.steps.push(entry);
      steps.set(key, group);
    }
  }
  const values = [...steps.values()].map((g) => net(g.changeId, g.heading, g.steps));
  return { values, missing: missingReasons(changes, values, nameless, businesses) };
}

function net(changeId: number, heading: string, steps: readonly HeadingValue[]): AttributedValue {
  const order = steps.length === 1 ? [1] : chainOrder(steps);
  if (!order) {
    return {
      changeId,
      heading,
      oldValue: steps[0]!.oldValue,
      oldUnknown: steps[0]!.oldUnknown === true,
      newValue: steps.at(-1)!.newValue,
      fileOrderAmbiguous: true,
    };
  }
  const first = steps[order.indexOf(1)]!;
  const last = steps[order.indexOf(Math.max(...order))]!;
  return {
    changeId,
    heading,
    oldValue: first.oldValue,
    oldUnknown: first.oldUnknown === true,
    newValue: last.newValue,
    fileOrderAmbiguous: false,
  };
}

function missingReasons(
  changes: readonly FileChange[],
  values: readonly AttributedValue[],
  nameless: number,
  businesses: readonly string[],
): string[] {
  const given = new Set(values.map((v) => `${v.changeId}\u0000${v.heading}`));
  const lacking = changes.flatMap((c) => {
    const headings = c.headings.filter((h) => !given.has(`${c.id}\u0000${h}`));
    return headings.length > 0 ? [{ change: c, headings }] : [];
  });
  if (lacking.length === 0) return [];
  const reasons: string[] = [];
  if (nameless > 0) {
    reasons.push(
      `${nameless} entr${nameless === 1 ? "y names" : "ies name"} no business while the changes pointing at the file are of ${businesses.length} businesses (${businesses.slice(0, NAMED).join(", ")}${businesses.length > NAMED ? ", …" : ""})`,
    );
  }
  const named = lacking.slice(0, NAMED).map(({ change, headings }) => {
    const list = headings.slice(0, NAMED).join(", ") + (headings.length > NAMED ? ", …" : "");
    return `${change.taxId} (chapter ${change.chapter}): ${list}`;
  });
  const more = lacking.length > NAMED ? `; and ${lacking.length - NAMED} more changes` : "";
  reasons.push(`no entry gives ${named.join("; ")}${more}`);
  return reasons;
}
