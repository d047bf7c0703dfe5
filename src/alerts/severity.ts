/**
 * How urgent a change is for the people who act on alerts: a new bank account (money may go to
 * someone else), a business that ceased or was suspended (it should not be paid), and a new name
 * (the business may no longer be who the contract names) are high; every other change is normal.
 * Pure data: the inbox's SQL takes these sets as parameters, the pages show the level in words.
 */

export type Severity = "high" | "normal";
export const SEVERITIES: readonly Severity[] = ["high", "normal"];

/** What makes a change high, as the inbox's query reads it. */
export interface SeverityRule {
  /** A change of any of these headings is high. */
  headings: string[];
  /** Headings whose value is the registry's status code... */
  statusHeadings: string[];
  /** ...and the codes that make a change of them high (0 ceased, 2 suspended), as text. */
  statusCodes: string[];
}

export const SEVERITY_RULE: SeverityRule = {
  headings: ["bank_accounts", "long_name", "short_name", "full_name", "name"],
  statusHeadings: ["status", "status_code"],
  statusCodes: ["0", "2"],
};
