/**
 * From the hits of a registration-number search to the tax base number to watch (pure). Two hits
 * for one number are normal when the business changed type; they share the base number.
 */
import type { BusinessRecord } from "../api/search-schemas.ts";
import { taxBaseOf } from "../taxid.ts";

export type Resolution = { ok: true; taxId: string } | { ok: false; problem: string };

/** The watch service does not cover budget organisations (docs/registry.md, "Search interface"). */
const NOT_WATCHABLE = new Set(["budget_orgs"]);

export function taxIdForRegistrationNumber(regNumber: string, hits: readonly BusinessRecord[]): Resolution {
  if (hits.length === 0) {
    return { ok: false, problem: `registration number ${regNumber} was not found in the registry` };
  }
  const watchable = hits.filter((r) => !NOT_WATCHABLE.has(r.type ?? ""));
  if (watchable.length === 0) {
    return {
      ok: false,
      problem: `registration number ${regNumber} belongs to a budget organisation, which the watch service does not cover`,
    };
  }
  const bases = [...new Set(watchable.map((r) => (r.tax_number ? taxBaseOf(r.tax_number) : undefined)))];
  if (bases.some((b) => b === undefined)) {
    return {
      ok: false,
      problem: `the registry returned no usable tax number for registration number ${regNumber}`,
    };
  }
  if (bases.length > 1) {
    return {
      ok: false,
      problem: `registration number ${regNumber} matches several businesses (${bases.join(", ")}): give the tax id instead`,
    };
  }
  return { ok: true, taxId: bases[0]! };
}
