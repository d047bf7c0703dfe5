/**
 * Check digits the registry's identifiers carry. The emulator keeps its own copy of the tax-id
 * rule (product code has another) so that a bug in one cannot hide the same bug in the other.
 */

const TAX_WEIGHTS = [9, 7, 3, 1, 9, 7, 3] as const;

/** Check digit over digits weighted 9,7,3,1 repeating: (10 - weighted sum mod 10) mod 10. */
function weightedCheckDigit(digits: string, weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += Number(digits[i]) * (weights[i % weights.length] ?? 0);
  return (10 - (sum % 10)) % 10;
}

/** Appends the check digit to the first seven digits of a tax base number. */
export function withTaxCheckDigit(sevenDigits: string): string {
  return sevenDigits + String(weightedCheckDigit(sevenDigits, TAX_WEIGHTS));
}

export type TaxIdProblem = "format" | "check-digit";

/** Why a tax base number cannot exist, or null when it is well-formed. */
export function taxIdProblem(value: string): TaxIdProblem | null {
  if (!/^\d{8}$/.test(value)) return "format";
  return withTaxCheckDigit(value.slice(0, 7)) === value ? null : "check-digit";
}

/** A bank account part (8 or 16 digits) ends in a check digit with the same 9,7,3,1 weighting. */
export function withAccountCheckDigit(digits: string): string {
  return digits + String(weightedCheckDigit(digits, [9, 7, 3, 1]));
}
