/**
 * The words of the verdicts' details (pure): a bad amount as written, when an account was added,
 * who holds an account, and who verified one.
 */
import type { PaymentRow } from "./batch-row.ts";
import type { Knowledge, KnownAccount, Verification } from "./verdicts.ts";

/** Why the row's amount cannot be paid, naming it as written; undefined when it can (or none is given). */
export function amountProblem(row: PaymentRow): string | undefined {
  const written = row.amountRaw ?? row.amount ?? "";
  if (row.amountProblem) return `the amount "${written}" cannot be paid: ${row.amountProblem}`;
  if (row.amount === null) {
    return row.amountRaw !== null && row.amountRaw.trim() === ""
      ? "the amount cell is empty"
      : row.amountRaw !== null
        ? `the amount "${written}" cannot be read`
        : undefined;
  }
  const value = Number(row.amount);
  if (value === 0) return `the amount "${written}" is zero`;
  if (value < 0 || row.amount.startsWith("-")) return `the amount "${written}" is negative`;
  return undefined;
}

const SOURCE_WORDS: Record<string, string> = {
  search: "a search record read",
  profile: "the business profile as of",
  baseline: "a search record read",
};

export function describeAdded(match: KnownAccount, holdDays: number): string {
  const first = match.addedSource ? SOURCE_WORDS[match.addedSource] : undefined;
  const how = first
    ? ` (${first} that day is the first to list it; the business's record before did not)`
    : "";
  return `the account was added on ${match.addedOn}${how}, within the ${holdDays}-day hold`;
}

export function describeHolder(taxId: string, knowledge: Knowledge): string {
  const name = knowledge.businesses.get(taxId)?.name;
  return name ? `${taxId} (${name})` : taxId;
}

export function describeVerification(v: Verification): string {
  return `verified by ${v.by} on ${v.on}${v.note ? ` (${v.note})` : ""}`;
}
