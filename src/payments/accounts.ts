/**
 * Hungarian bank account numbers (README, "Payment guard"), pure. A domestic number is 16 or 24 digits:
 * the first eight (bank, branch, check digit) and the account part (8 or 16 digits, ending in a
 * check digit); each part is valid when its digits weighted 9,7,3,1 repeating sum to a multiple
 * of ten. A Hungarian IBAN is HU, two ISO 13616 check digits and the 24-digit number (a 16-digit
 * one padded with eight zeros). Every accepted form is brought to one canonical form, the 24
 * digits in three hyphenated groups, so a payment file's IBAN meets the registry's domestic form.
 */

import { type Said, said } from "../said.ts";

const WEIGHTS = [9, 7, 3, 1] as const;

export type AccountForm = "domestic" | "iban";

export type ParsedAccount =
  | { ok: true; account: string; iban: string; form: AccountForm }
  | { ok: false; problem: string; said: Said };

function weightedSum(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += Number(digits[i]) * WEIGHTS[i % 4]!;
  return sum;
}

/** Whether one part (the first 8 digits, or the 8 or 16 after them) passes the 9,7,3,1 rule. */
export function partIsValid(digits: string): boolean {
  return /^\d+$/.test(digits) && weightedSum(digits) % 10 === 0;
}

/** The digit that completes `digits` to a valid part. */
export function partCheckDigit(digits: string): number {
  return (10 - (weightedSum(digits) % 10)) % 10;
}

/** Remainder mod 97 of a long decimal string, read in chunks that stay exact in a double. */
function mod97(numeric: string): number {
  let rest = 0;
  for (let i = 0; i < numeric.length; i += 7) rest = Number(`${rest}${numeric.slice(i, i + 7)}`) % 97;
  return rest;
}

/** Letters as ISO 13616 numbers them (A = 10 ... Z = 35). */
function lettersToDigits(text: string): string {
  return text.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
}

/** The two IBAN check digits of a 24-digit Hungarian domestic number. */
export function ibanCheckDigits(domestic24: string): string {
  const rest = mod97(`${domestic24}${lettersToDigits("HU")}00`);
  return String(98 - rest).padStart(2, "0");
}

/** Whether an IBAN written without blanks passes the mod-97 rule. */
export function ibanIsValid(iban: string): boolean {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban)) return false;
  return mod97(lettersToDigits(iban.slice(4) + iban.slice(0, 4))) === 1;
}

/** Three hyphenated groups of eight: the form the registry's records show. */
export function groupDigits(digits24: string): string {
  return `${digits24.slice(0, 8)}-${digits24.slice(8, 16)}-${digits24.slice(16, 24)}`;
}

/** The IBAN of a 24-digit domestic number. */
export function ibanOf(domestic24: string): string {
  return `HU${ibanCheckDigits(domestic24)}${domestic24}`;
}

function checkParts(digits24: string, raw: string): Said | undefined {
  if (!partIsValid(digits24.slice(0, 8))) {
    return said(
      "account.firstGroup",
      { raw },
      `bank account "${raw}" has a wrong check digit in its first group (bank and branch)`,
    );
  }
  if (!partIsValid(digits24.slice(8))) {
    return said(
      "account.accountPart",
      { raw },
      `bank account "${raw}" has a wrong check digit in its account part`,
    );
  }
  return undefined;
}

function refused(problem: Said): ParsedAccount {
  return { ok: false, problem: problem.text, said: problem };
}

/**
 * Any accepted form (16 or 24 digits with or without hyphens or blanks, or a Hungarian IBAN
 * with or without blanks) to the canonical account, or a message naming what is wrong.
 */
export function parseAccount(raw: string): ParsedAccount {
  const compact = raw.replace(/[\s-]/g, "").toUpperCase();
  if (/^[A-Z]{2}/.test(compact)) {
    if (!compact.startsWith("HU")) {
      return refused(
        said(
          "account.foreignIban",
          { raw },
          `bank account "${raw}" is a foreign IBAN; only Hungarian accounts are checked`,
        ),
      );
    }
    if (!/^HU\d{26}$/.test(compact)) {
      return refused(
        said("account.ibanShape", { raw }, `IBAN "${raw}" must be HU, two check digits and 24 digits`),
      );
    }
    if (!ibanIsValid(compact)) {
      return refused(said("account.ibanCheck", { raw }, `IBAN "${raw}" has wrong check digits (mod 97)`));
    }
    const digits = compact.slice(4);
    const problem = checkParts(digits, raw);
    if (problem) return refused(problem);
    return { ok: true, account: groupDigits(digits), iban: compact, form: "iban" };
  }
  // Hyphens only between groups of eight; blanks anywhere (statements print groups of four).
  const written = raw.replace(/\s+/g, "");
  const grouped = /^\d{8}(-\d{8}){1,2}$/.test(written) || /^\d+$/.test(written);
  if (!grouped || (compact.length !== 16 && compact.length !== 24)) {
    return refused(
      said(
        "account.shape",
        { raw },
        `bank account "${raw}" must be 16 or 24 digits (groups of eight, hyphens optional) or a Hungarian IBAN`,
      ),
    );
  }
  const digits = compact.length === 16 ? `${compact}00000000` : compact;
  const problem = checkParts(digits, raw);
  if (problem) return refused(problem);
  return { ok: true, account: groupDigits(digits), iban: ibanOf(digits), form: "domestic" };
}

/**
 * What to send to the search interface for a canonical account: the full number, or the
 * 17-character fragment when the account has only 16 digits (the registry may show it so).
 */
export function searchValueOf(account: string): string {
  return account.endsWith("-00000000") ? account.slice(0, 17) : account;
}
