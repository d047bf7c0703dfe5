/**
 * What a business profile learns from one source: heading values with the day they held from,
 * and the name, status and seat picked out of them. Pure; src/db/business-profiles.ts writes it,
 * letting only values at least as new as the stored ones through.
 */

export type ProfileSource = "search" | "operator" | "change_file";

/** One heading's value with the day it is known to hold from and where it came from. */
export interface HeadingFact {
  value: unknown;
  as_of: string;
  source: ProfileSource;
}

export interface ProfileFacts {
  taxId: string;
  headings: Record<string, HeadingFact>;
  type?: string | null;
  registrationNumber?: string | null;
  /** The search record itself, kept as the baseline when the profile has none yet. */
  baseline?: unknown;
  baselineAsOf?: string;
}

/** Headings that carry a name, best first; the SQL picks the newest, short names only as a fallback. */
export const NAME_HEADINGS = ["long_name", "full_name", "name", "short_name"] as const;
export const STATUS_HEADINGS = ["status", "status_code"] as const;
export const SEAT_HEADINGS = ["address", "seat"] as const;

/** Search record fields under the heading names change files use, so both feed the same keys. */
export function recordHeadings(record: Record<string, unknown>): Record<string, unknown> {
  const headings: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (value === undefined) continue;
    if (key === "full_name") headings.long_name = value;
    else if (key === "status_code") headings.status = value;
    else headings[key] = value;
  }
  return headings;
}

/** Every heading of a search record, holding from the day it was read. */
export function factsFromRecord(
  taxId: string,
  record: Record<string, unknown>,
  readOn: string,
): ProfileFacts {
  const headings: Record<string, HeadingFact> = {};
  for (const [heading, value] of Object.entries(recordHeadings(record))) {
    headings[heading] = { value, as_of: readOn, source: "search" };
  }
  return {
    taxId,
    headings,
    type: typeof record.type === "string" ? record.type : null,
    registrationNumber: typeof record.registration_number === "string" ? record.registration_number : null,
    baseline: record,
    baselineAsOf: readOn,
  };
}

/** A name an operator gave (watch add --name, watch import), holding from the day given. */
export function factsFromOperator(taxId: string, name: string, on: string): ProfileFacts {
  return { taxId, headings: { name: { value: name, as_of: on, source: "operator" } } };
}

/**
 * Per business, the newest value of each heading among parsed changes (later date wins, then the
 * later change), so that one batch writes one row per business.
 */
export function factsFromChanges(
  rows: ReadonlyArray<{
    taxId: string;
    changeDate: string;
    changeId: number;
    heading: string;
    newValue: unknown;
  }>,
): ProfileFacts[] {
  const sorted = [...rows].sort((a, b) =>
    a.changeDate === b.changeDate ? a.changeId - b.changeId : a.changeDate < b.changeDate ? -1 : 1,
  );
  const byTaxId = new Map<string, ProfileFacts>();
  for (const row of sorted) {
    let facts = byTaxId.get(row.taxId);
    if (!facts) {
      facts = { taxId: row.taxId, headings: {} };
      byTaxId.set(row.taxId, facts);
    }
    facts.headings[row.heading] = { value: row.newValue, as_of: row.changeDate, source: "change_file" };
  }
  return [...byTaxId.values()];
}

/** The day a record is read or a name given, for as_of. */
export function todayUtc(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}
