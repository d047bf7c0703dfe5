/**
 * Tax base numbers (the registry's `tax_id`): eight digits, the last a check digit over the first
 * seven with weights 9, 7, 3, 1, 9, 7, 3 (docs/registry.md, "Watch interface"). The one place that
 * reads a tax id as people write it: a base, a full tax number or a community tax number `HU…`.
 */

import { type Said, said } from "./said.ts";

const WEIGHTS = [9, 7, 3, 1, 9, 7, 3] as const;

export function checkDigit(firstSeven: string): number {
  let sum = 0;
  for (let i = 0; i < 7; i++) sum += Number(firstSeven[i]) * WEIGHTS[i]!;
  return (10 - (sum % 10)) % 10;
}

export type TaxIdProblem = "format" | "foreign" | "check-digit";

/**
 * The community tax number (EU VAT number) of a Hungarian taxpayer: `HU` and the tax base number,
 * as suppliers' and ERPs' exports write it; a blank or hyphen after the prefix, any case.
 */
const COMMUNITY = /^hu[ -]?(\d{8})$/i;

// The other member states' VAT prefixes (Greece writes EL, Northern Ireland XI): a number with
// one of them is a foreign business's, never a Hungarian tax number with a typo.
const FOREIGN =
  /^(AT|BE|BG|CY|CZ|DE|DK|EE|EL|ES|FI|FR|HR|IE|IT|LT|LU|LV|MT|NL|PL|PT|RO|SE|SI|SK|XI)[ -]?(?=[0-9A-Z+*]*\d)[0-9A-Z+*]{2,12}$/i;

/** The tax base number a community tax number `HU12345678` names, or undefined for any other text. */
export function communityTaxBase(text: string): string | undefined {
  return COMMUNITY.exec(text.trim())?.[1];
}

/** The member state (upper case) whose VAT number the text is, when it is another member state's. */
export function foreignVatCountry(text: string): string | undefined {
  return FOREIGN.exec(text.trim())?.[1]?.toUpperCase();
}

/** Why a tax base number cannot exist, or undefined when it is well-formed. */
export function taxIdProblem(value: string): TaxIdProblem | undefined {
  if (!/^\d{8}$/.test(value)) return foreignVatCountry(value) === undefined ? "format" : "foreign";
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
    case "foreign":
      return foreignSaid(value);
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

/** Another member state's VAT number named as such, in the reader's language. */
export function foreignSaid(value: string): Said | undefined {
  const country = foreignVatCountry(value);
  if (country === undefined) return undefined;
  return said(
    "taxid.foreign",
    { value, country },
    `tax id "${value}" is a VAT number of another member state (${country}), not a Hungarian tax number`,
  );
}

/**
 * A tax id as people and other systems write it, reduced to the tax base number it stands for:
 * surrounding blanks removed (a padded CHAR column of a BI tool), a full tax number
 * `xxxxxxxx-y-zz` cut to its first eight digits and a community tax number `HU12345678` to its
 * digits. Undefined when it has none of these shapes; the check digit is not judged here
 * (`taxIdProblem` does that).
 */
export function normaliseTaxId(raw: string): string | undefined {
  const trimmed = raw.trim();
  if (/^\d{8}$/.test(trimmed)) return trimmed;
  if (/^\d{8}-\d-\d{2}$/.test(trimmed)) return trimmed.slice(0, 8);
  return communityTaxBase(trimmed);
}

/** The tax base number of a tax number `xxxxxxxx-y-zz` (its first eight digits) or of a community tax number `HU12345678`. */
export function taxBaseOf(taxNumber: string): string | undefined {
  const m = /^(\d{8})(-?\d-?\d{2})?$/.exec(taxNumber.trim());
  return m?.[1] ?? communityTaxBase(taxNumber);
}
