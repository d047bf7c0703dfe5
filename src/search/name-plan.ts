/**
 * Which search could name each unnamed watched business (pure). The registry cannot be searched
 * by tax number, so a business is found through what regwatch holds of it, best clue first: its
 * registration number (one or two hits, exact), an account a batch paid it on (the account's
 * holders), else a name it was given (up to 50 hits by word beginnings). The search's records
 * carry tax numbers: the business is named when one of them is its own. Each search is one
 * request of the month's quota.
 */
import {
  checkBankAccount,
  checkName,
  checkRegistrationNumber,
  type SearchKind,
} from "../api/search-query.ts";
import type { UnnamedBusiness } from "./sql/unnamed.ts";

export interface NameSearch {
  taxId: string;
  kind: SearchKind;
  value: string;
}

export interface NamePlan {
  /** One search per business that has a usable clue, in the order they will be spent. */
  searches: NameSearch[];
  /** Businesses nothing is known of that a search could use. */
  clueless: string[];
}

/** The search for one business, or undefined when no clue it holds is a value the registry takes. */
export function searchFor(business: UnnamedBusiness): NameSearch | undefined {
  const tries: [SearchKind, string | null, typeof checkName][] = [
    ["reg-number", business.registrationNumber, checkRegistrationNumber],
    ["bank-account", business.bankAccount, checkBankAccount],
    ["name", business.givenName, checkName],
  ];
  for (const [kind, clue, check] of tries) {
    if (!clue) continue;
    const checked = check(clue);
    if (checked.ok) return { taxId: business.taxId, kind, value: checked.value };
  }
  return undefined;
}

export function planNameSearches(businesses: readonly UnnamedBusiness[]): NamePlan {
  const searches: NameSearch[] = [];
  const clueless: string[] = [];
  for (const business of businesses) {
    const search = searchFor(business);
    if (search) searches.push(search);
    else clueless.push(business.taxId);
  }
  return { searches, clueless };
}
