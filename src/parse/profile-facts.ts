/**
 * What a business profile learns from a search record or an operator: heading values with the
 * day they held from. Pure; src/parse/sql/business-profiles.ts writes it, letting only values at least
 * as new as the stored ones through. What change files tell is rebuilt from change_values by
 * the parse step (rebuildChangeFacts), so the same-day order decides it.
 */

import type { HeadingFact, ProfileFacts } from "./sql/business-profiles.ts";

export { registryDay } from "../dates.ts";
export type { HeadingFact, ProfileFacts, ProfileSource } from "./sql/business-profiles.ts";

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
