/**
 * From the hits of a registration-number search to the tax base number to watch (pure). Two hits
 * for one number are normal when the business changed type; they share the base number.
 */
import type { BusinessRecord } from "../api/search-schemas.ts";
import { type Said, said } from "../said.ts";
import { taxBaseOf } from "../taxid.ts";

export type Resolution = { ok: true; taxId: string } | { ok: false; problem: string; said?: Said };

/** A refusal said as a sentence the console says in its reader's language. */
export function unresolved(s: Said): Resolution {
  return { ok: false, problem: s.text, said: s };
}

/** The watch service does not cover budget organisations (docs/registry.md, "Search interface"). */
const NOT_WATCHABLE = new Set(["budget_orgs"]);

export function taxIdForRegistrationNumber(regNumber: string, hits: readonly BusinessRecord[]): Resolution {
  if (hits.length === 0) {
    return unresolved(
      said(
        "resolve.notFound",
        { regNumber },
        `registration number ${regNumber} was not found in the registry`,
      ),
    );
  }
  const watchable = hits.filter((r) => !NOT_WATCHABLE.has(r.type ?? ""));
  if (watchable.length === 0) {
    return unresolved(
      said(
        "resolve.budgetOrg",
        { regNumber },
        `registration number ${regNumber} belongs to a budget organisation, which the watch service does not cover`,
      ),
    );
  }
  const bases = [...new Set(watchable.map((r) => (r.tax_number ? taxBaseOf(r.tax_number) : undefined)))];
  if (bases.some((b) => b === undefined)) {
    return unresolved(
      said(
        "resolve.noTaxNumber",
        { regNumber },
        `the registry returned no usable tax number for registration number ${regNumber}`,
      ),
    );
  }
  if (bases.length > 1) {
    const taxIds = bases as string[];
    return unresolved(
      said(
        "resolve.several",
        { regNumber, taxIds },
        `registration number ${regNumber} matches several businesses (${taxIds.join(", ")}): give the tax id instead`,
      ),
    );
  }
  return { ok: true, taxId: bases[0]! };
}
