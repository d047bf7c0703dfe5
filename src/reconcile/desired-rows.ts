/**
 * The desired rows as reconcile reads them, pure: checked by the rules the CLI applies
 * (desired-names.ts), because other systems write desired_lists and desired_items with plain SQL.
 * A list whose name the CLI would refuse is left out of the run, nothing sent for it; an item it
 * would refuse is recorded as refused (422) and never sent, and the tax id it most likely means
 * stays on the list rather than being removed for want of a readable row.
 */
import { listNameProblemSaid, readDesiredTaxId } from "../desired-names.ts";
import type { Said } from "../said.ts";

export interface DesiredList {
  listName: string;
  /** Remove remote items that are not desired. */
  prune: boolean;
  /** Desired tax ids in the order they were desired (earliest first: they win the capacity). */
  taxIds: readonly string[];
}

/** An item recorded locally, never sent. */
export interface LocalRefusal {
  taxId: string;
  code: 422 | 429;
  message: string;
}

export interface RefusedList {
  listName: string;
  /** Why, in the CLI's English. */
  problem: string;
  /** The same, for the console to say in its reader's language. */
  problemSaid: Said;
}

/** Desired lists reconcile works on, and those whose name it refuses. */
export function checkDesiredLists(desired: readonly DesiredList[]): {
  accepted: DesiredList[];
  refused: RefusedList[];
} {
  const accepted: DesiredList[] = [];
  const refused: RefusedList[] = [];
  for (const list of desired) {
    const problem = listNameProblemSaid(list.listName);
    if (problem) refused.push({ listName: list.listName, problem: problem.text, problemSaid: problem });
    else accepted.push(list);
  }
  return { accepted, refused };
}

/**
 * One message per refused list, naming the row as stored. Callers show it escaped on a terminal
 * (terminalSafe) and exact in JSON, so the name is left as it is here.
 */
export function refusedListProblems(refused: readonly RefusedList[]): string[] {
  return refused.map(
    (r) =>
      `desired list "${r.listName}" (a row of desired_lists) ${r.problem}; nothing was sent for it. ` +
      "Rename or delete that row: `regwatch watch` would not accept such a name",
  );
}

export interface NormalisedDesired {
  /** Tax base numbers the rows stand for, in the order desired, duplicates merged. */
  wanted: Set<string>;
  /** Rows that cannot be read, under the value as written. */
  unreadable: LocalRefusal[];
  /** Tax ids refused rows most likely mean: never sent, never removed while the row stands. */
  meant: Set<string>;
}

/**
 * Desired rows reduced once to the tax base numbers they stand for (blanks trimmed, tax numbers
 * cut to their base). A row of neither shape, or one holding a control character or digits
 * other than 0-9, is refused with its reason.
 */
export function normaliseDesired(taxIds: readonly string[]): NormalisedDesired {
  const wanted = new Set<string>();
  const unreadable: LocalRefusal[] = [];
  const meant = new Set<string>();
  for (const raw of taxIds) {
    const reading = readDesiredTaxId(raw);
    if (reading.ok) {
      wanted.add(reading.taxId);
      continue;
    }
    if (reading.meant) meant.add(reading.meant);
    const kept = reading.meant ? `; ${reading.meant} stays on the list while this row stands` : "";
    unreadable.push({
      taxId: raw,
      code: 422,
      message: `not sent: ${JSON.stringify(raw)} ${reading.problem}${kept}`,
    });
  }
  return { wanted, unreadable, meant };
}
