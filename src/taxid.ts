/**
 * Tax base numbers (the registry's `tax_id`): eight digits, the last a check digit over the first
 * seven with weights 9, 7, 3, 1, 9, 7, 3 (docs/registry.md, "Watch interface").
 */

import { type Said, said } from "./said.ts";

const WEIGHTS = [9, 7, 3, 1, 9, 7, 3] as const;

export function checkDigit(firstSeven: string): number {
  let sum = 0;
  for (let i = 0; i < 7; i++) sum += Number(firstSeven[i]) * WEIGHTS[i]!;
  return (10 - (sum % 10)) % 10;
}

export type TaxIdProblem = "format" | "check-digit";

/** Why a tax base number cannot exist, or undefined when it is well-formed. */
export function taxIdProblem(value: string): TaxIdProblem | undefined {
  if (!/^\d{8}$/.test(value)) return "format";
  // checkDigit reads the first seven digits only: no slice of them is made (it runs for every row of a payment batch).
  return checkDigit(value) === Number(value[7]) ? undefined : "check-digit";
}

export function isValidTaxId(value: string): boolean {
  return taxIdProblem(value) === undefined;
}

export function describeTaxIdProblem(value: string): string | undefined {
  return taxIdProblemSaid(value)?.text;
}

/** Why a tax base number cannot exist, as a sentence the console says in its reader's language. */
export function taxIdProblemSaid(value: string): Said | undefined {
  switch (taxIdProblem(value)) {
    case "format":
      return said("taxid.format", { value }, `tax id "${value}" must be exactly 8 digits`);
    case "check-digit": {
      const expected = checkDigit(value.slice(0, 7));
      return said(
        "taxid.checkDigit",
        { value, expected: String(expected) },
        `tax id "${value}" has a wrong check digit (expected ${expected})`,
      );
    }
    default:
      return undefined;
  }
}

/**
 * A tax id as people and other systems write it, reduced to the tax base number it stands for:
 * surrounding blanks removed (a padded CHAR column of a BI tool) and a full tax number
 * `xxxxxxxx-y-zz` cut to its first eight digits. Undefined when it has neither shape; the check
 * digit is not judged here (`taxIdProblem` does that).
 */
export function normaliseTaxId(raw: string): string | undefined {
  const trimmed = raw.trim();
  if (/^\d{8}$/.test(trimmed)) return trimmed;
  return /^\d{8}-\d-\d{2}$/.test(trimmed) ? trimmed.slice(0, 8) : undefined;
}

/** The tax base number of a tax number `xxxxxxxx-y-zz` (its first eight digits). */
export function taxBaseOf(taxNumber: string): string | undefined {
  const m = /^(\d{8})(-?\d-?\d{2})?$/.exec(taxNumber.trim());
  return m?.[1];
}
