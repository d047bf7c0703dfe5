/**
 * What may be sent to the search interface, checked before any request is made (each request
 * counts toward the monthly quota, so a value the registry would reject must never cost one).
 * Pure: returns the value as it should be sent, or a message naming the problem.
 */
import { type Said, said } from "../said.ts";

export const SEARCH_KINDS = ["reg-number", "name", "bank-account"] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

/** Path of each kind under the search interface's base address (docs/registry.md, "Search interface"). */
export const SEARCH_PATHS: Record<SearchKind, string> = {
  "reg-number": "/v1/reg-numbers",
  name: "/v1/names",
  "bank-account": "/v1/bank-accounts",
};

export const MIN_NAME_LENGTH = 3;

/** Registration number shapes (docs/registry.md, "Search interface"), with the business kind of each. */
export const REGISTRATION_FORMATS = [
  { pattern: /^\d{2}-\d{2}-\d{6}$/, shape: "xx-yy-zzzzzz", kind: "company register number" },
  { pattern: /^\d{8}$/, shape: "xxxxxxxx", kind: "sole proprietor registration number" },
  { pattern: /^\d{2}-\d{2}-\d{3}$/, shape: "xx-yy-zzz", kind: "civil organisation registration number" },
  { pattern: /^\d{5}$/, shape: "xxxxx", kind: "budget organisation identifier" },
] as const;

export type Checked = { ok: true; value: string } | { ok: false; problem: string; said: Said };

function refused(s: Said): Checked {
  return { ok: false, problem: s.text, said: s };
}

export function checkSearchValue(kind: SearchKind, raw: string): Checked {
  switch (kind) {
    case "reg-number":
      return checkRegistrationNumber(raw);
    case "name":
      return checkName(raw);
    case "bank-account":
      return checkBankAccount(raw);
  }
}

/** One of the four formats; surrounding blanks are dropped. */
export function checkRegistrationNumber(raw: string): Checked {
  const value = raw.trim();
  if (REGISTRATION_FORMATS.some((f) => f.pattern.test(value))) return { ok: true, value };
  const shapes = REGISTRATION_FORMATS.map((f) => f.shape).join(", ");
  return refused(
    said(
      "search.badRegNumber",
      { raw, shapes },
      `registration number "${raw}" matches none of the formats ${shapes} (x, y, z are digits)`,
    ),
  );
}

/**
 * At least three characters that are not blanks, since the registry matches word beginnings and
 * refuses shorter terms. Runs of blanks are folded to one: words are separated by a space.
 */
export function checkName(raw: string): Checked {
  const value = raw.trim().replace(/\s+/g, " ");
  if (value.replace(/ /g, "").length < MIN_NAME_LENGTH) {
    return refused(
      said(
        "search.shortName",
        { raw, min: MIN_NAME_LENGTH },
        `name "${raw}" is too short: give at least ${MIN_NAME_LENGTH} characters`,
      ),
    );
  }
  return { ok: true, value };
}

/**
 * A full account (three groups of eight digits) or the 17-character prefix the registry accepts
 * (two groups). Blanks are ignored and 16 or 24 digits written without hyphens are grouped, so
 * an account copied from a statement works as it is.
 */
export function checkBankAccount(raw: string): Checked {
  const compact = raw.replace(/\s+/g, "");
  const digitsOnly = /^\d+$/.test(compact) && (compact.length === 16 || compact.length === 24);
  const value = digitsOnly ? (compact.match(/\d{8}/g) ?? []).join("-") : compact;
  if (/^\d{8}-\d{8}(-\d{8})?$/.test(value)) return { ok: true, value };
  return refused(
    said(
      "search.badAccount",
      { raw },
      `bank account "${raw}" must be xxxxxxxx-xxxxxxxx-xxxxxxxx or its first 17 characters ` +
        "xxxxxxxx-xxxxxxxx (x are digits)",
    ),
  );
}
