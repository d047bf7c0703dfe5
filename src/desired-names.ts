/**
 * What a desired list name and a desired tax id may hold, wherever they come from: typed on the
 * command line (`regwatch watch ...`) or written into desired_lists / desired_items by another
 * system with plain SQL. One set of rules, so `reconcile` refuses exactly what the CLI refuses
 * and never sends the registry a name nobody could have typed.
 */
import { type Said, said } from "./said.ts";
import { foreignVatCountry, normaliseTaxId } from "./taxid.ts";

/** Longest list name accepted. */
export const LIST_NAME_MAX = 200;

// Characters no list name or tax id needs and that would forge or reorder a printed line:
// controls (C0, DEL, C1: newline, ESC, ...), format characters (bidi overrides, zero-width
// joiners, BOM) and the line and paragraph separators.
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
const HIDDEN_ALL = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/** `U+000A`: how a hidden character is named in a message (the character itself would act). */
function codePoint(c: string): string {
  return `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
}

function hiddenProblem(value: string): Said | undefined {
  const found = HIDDEN.exec(value);
  if (!found) return undefined;
  const character = codePoint(found[0]);
  return said("names.hidden", { character }, `holds a control or invisible character (${character})`);
}

/**
 * Why a list name, exactly as stored, cannot be a list's name, or undefined when it can. Blanks
 * around it count as a problem: the CLI trims them, so only another writer leaves them, and a
 * remote list named "suppliers " would look like "suppliers" in every report.
 */
export function listNameProblem(name: string): string | undefined {
  return listNameProblemSaid(name)?.text;
}

/** listNameProblem as a sentence the console says in its reader's language. */
export function listNameProblemSaid(name: string): Said | undefined {
  if (name.trim().length === 0) return said("names.empty", {}, "is empty");
  const hidden = hiddenProblem(name);
  if (hidden) return hidden;
  if (name.trim() !== name) return said("names.blanks", {}, "has blanks before or after it");
  if (name.length > LIST_NAME_MAX) {
    return said("names.tooLong", { max: LIST_NAME_MAX }, `is longer than ${LIST_NAME_MAX} characters`);
  }
  return undefined;
}

export type DesiredTaxIdReading =
  | { ok: true; taxId: string }
  | {
      ok: false;
      problem: string;
      said: Said;
      /** The tax base number the row most likely stands for, when one can be made out. */
      meant?: string;
    };

/**
 * A desired tax id reduced to the tax base number it stands for (see normaliseTaxId: blanks
 * around it, the `-y-zz` of a full tax number and the `HU` of a community tax number go), or why
 * it cannot be read (another member state's VAT number named as such). A control or
 * invisible character anywhere, or a digit outside 0-9 (a full-width or Arabic-Indic one), is a
 * problem rather than something to clean up: the row was not written the way a person types it.
 * The check digit is not judged here (taxIdProblem does that).
 */
export function readDesiredTaxId(raw: string): DesiredTaxIdReading {
  const hidden = hiddenProblem(raw);
  if (hidden) return { ok: false, problem: hidden.text, said: hidden, ...meantBy(raw) };
  if (/[^\P{Nd}0-9]/u.test(raw)) {
    const digits = said("names.otherDigits", {}, "holds digits other than 0-9");
    return { ok: false, problem: digits.text, said: digits, ...meantBy(raw) };
  }
  const taxId = normaliseTaxId(raw);
  const country = taxId === undefined ? foreignVatCountry(raw) : undefined;
  if (country !== undefined) {
    const foreign = said(
      "names.foreignTaxId",
      { country },
      `is a VAT number of another member state (${country}), not a Hungarian tax number`,
    );
    return { ok: false, problem: foreign.text, said: foreign };
  }
  if (taxId === undefined) {
    const shape = said(
      "names.taxIdShape",
      {},
      "is neither a tax base number (8 digits) nor a tax number (xxxxxxxx-y-zz)",
    );
    return { ok: false, problem: shape.text, said: shape };
  }
  return { ok: true, taxId };
}

/**
 * The tax base number a refused row most likely means: hidden characters dropped and digits
 * folded to 0-9 (NFKC turns full-width digits into ASCII ones; other scripts' digits by value).
 * Reconcile never sends it, but keeps it on the list: removing what a bad row probably asks
 * for would be the one irreversible mistake.
 */
function meantBy(raw: string): { meant?: string } {
  const folded = raw
    .normalize("NFKC")
    .replace(HIDDEN_ALL, "")
    .replace(/\p{Nd}/gu, (d) => String(digitValue(d)));
  const taxId = normaliseTaxId(folded);
  return taxId === undefined ? {} : { meant: taxId };
}

/** The value 0-9 of a decimal digit of any script: Unicode gives each script's digits as a run of ten, 0 first. */
function digitValue(digit: string): number {
  const code = digit.codePointAt(0)!;
  let before = 0;
  while (before < code && /\p{Nd}/u.test(String.fromCodePoint(code - before - 1))) before++;
  return before % 10;
}
