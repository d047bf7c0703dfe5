/**
 * What to do about a held payment (pure): every verdict but ok says how to clear it or what to
 * confirm. The recurring advice is the one that defeats invoice fraud: an account is confirmed
 * with the supplier through contact details already held, never those on the invoice or on the
 * letter that announces a new account.
 */

import type { UnknownReason } from "../changes/evidence.ts";
import { addDays } from "../dates.ts";
import { type Said, said } from "../said.ts";
import { consoleStep } from "./next-step-console.ts";
import type { StepContext, StepVoice, Verdict } from "./verdict-terms.ts";

export type { StepContext, StepVoice };

const CONFIRM =
  "confirm the account with the supplier by phone on a number you already hold, not one from the invoice or from a letter announcing a new account";

/** How to learn a change's values, by why they are unknown; null when regwatch cannot. */
const LEARN: Record<UnknownReason, string | null> = {
  no_file: "run `regwatch sync` so the change file is recorded and fetched, then check again",
  pending: "run `regwatch sync` to fetch the change file, then check again",
  failed:
    "run `regwatch sync` to fetch the change file again (`regwatch status` shows why it failed), then check again",
  refused:
    "if the file's origin is the registry's, add it to REGWATCH_FILE_ORIGINS and run `regwatch sync`, then check again",
  skipped:
    "add bank_accounts to REGWATCH_FETCH_FILES (or set it to all), run `regwatch sync`, then check again",
  not_parsed: "run `regwatch reparse` to parse the change file, then check again",
  unrecognised: null,
  parse_failed: null,
  unattributed: null,
  no_value: null,
  no_new_value: null,
  ambiguous: null,
};

function unverifiedStep(context: StepContext): string {
  const newest = context.unverified[0];
  if (!newest) return `Do not pay until you ${CONFIRM}.`;
  const held = context.unverified.filter((c) => c.withinHold);
  const learn = held.length > 0 ? LEARN[newest.reason] : null;
  // Past the hold, a record read after the change settles which accounts hold.
  const refresh = context.online
    ? "read the business's current record (`regwatch lookup reg-number ...`; the online check could not)"
    : "run the check again with --online, which reads the business's current record";
  const first = held.length > 0 ? learn : refresh;
  const lastHeld = held[0] ? addDays(held[0].changeDate, context.holdDays) : null;
  const wait = lastHeld ? `; the check holds the payment until ${lastHeld} has passed` : "";
  return first
    ? `${capitalise(first)}. Until then, ${CONFIRM} before paying${wait}.`
    : `regwatch cannot learn the new accounts from the change file: ${CONFIRM} before paying${wait}.`;
}

/** The exact command that records a confirmation, filled in as far as the row allows. */
function verifyCommand(context: StepContext): string {
  return `regwatch payments verify ${context.account ?? "ACCOUNT"} --tax-id ${context.taxBase ?? "TAX_ID"} --by "YOUR NAME" --note "how it was confirmed"`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The next step with its code (src/said.ts): `step.<verdict>` and what the console's words need
 * (whether the check ran online; the day a hold ends), so a stored step is said again in the
 * console's words and its reader's language; `text` is this voice's English.
 */
export function nextStepSaid(verdict: Verdict, context: StepContext): Said | null {
  const text = nextStep(verdict, context);
  if (text === null) return null;
  let day = "";
  if (verdict === "account_recently_changed" && context.addedOn) {
    day = addDays(context.addedOn, context.holdDays + 1);
  } else if (verdict === "account_change_unverified") {
    const held = context.unverified.find((c) => c.withinHold);
    if (held) day = addDays(held.changeDate, context.holdDays);
  }
  return said(`step.${verdict}`, { online: context.online ? "yes" : "no", day }, text);
}

export function nextStep(verdict: Verdict, context: StepContext): string | null {
  if (context.voice === "console") {
    const said = consoleStep(verdict, context);
    if (said !== undefined) return said;
  }
  switch (verdict) {
    case "invalid_tax_id":
      return "Correct the tax id from the supplier's master data (not the invoice) and check the batch again.";
    case "invalid_account":
      return "Correct the account number from a source you trust (not the invoice alone) and check the batch again.";
    case "business_ceased":
      return "Do not pay: the business has ceased. Ask the supplier, on contact details you already hold, who takes over its invoices.";
    case "status_unverified":
      return context.online
        ? "Do not pay until the status is known: the online check could not read the business's current record; read it with `regwatch lookup reg-number ...` and check again, or ask the supplier on contact details you already hold."
        : "Do not pay until the status is known: re-read it online (check again with --online, which reads the business's current record), then check again.";
    case "account_removed":
      return `Do not pay this account: the business removed it. Ask the supplier for its current account, ${CONFIRM}, write it in the file and check again.`;
    case "name_unverified":
      return context.online
        ? "Do not pay until the name is known: the online check could not read the business's current record; read it with `regwatch lookup reg-number ...` and check again."
        : "Do not pay until the name is known: re-read it online (check again with --online, which reads the business's current record), then check again.";
    case "account_unconfirmed":
      return `Before paying, ${CONFIRM}, then record it: \`${verifyCommand(context)}\`. No source has shown this account, so nothing else releases it.`;
    case "business_suspended":
      return `Do not pay while the business is suspended; ${CONFIRM} and check again with --online to read its current status.`;
    case "account_not_registered":
      return `Do not pay this account: ${CONFIRM}. If the supplier did change banks, check again with --online to read its current record.`;
    case "account_recently_changed": {
      const passes = context.addedOn ? addDays(context.addedOn, context.holdDays + 1) : null;
      return `Before paying, ${CONFIRM}, then record it: \`${verifyCommand(context)}\`.${passes ? ` Without that, the check passes it from ${passes}.` : ""}`;
    }
    case "account_change_unverified":
      return `${unverifiedStep(context)} Record the confirmation with \`${verifyCommand(context)}\`.`;
    case "unknown_account_holder":
      return context.online
        ? "Ask the payee for their tax number (calling them on a number you already hold, not one from the invoice), add it to the file and check again."
        : "Check again with --online to look the account up in the registry (companies only), or ask the payee for their tax number on a number you already hold and add it to the file.";
    case "name_mismatch":
      return "Do not pay until you know why the names differ: the invoice may name one company and the account belong to another. Check with the supplier on contact details you already hold; if it is only another spelling, write the registry's name in the file and check again.";
    case "invalid_amount":
      return "Fix the amount in the file (a positive number, as the invoice gives it) and check the batch again.";
    case "unknown_business":
      return context.online
        ? "Nothing in the registry matched: check the tax id and account with the supplier on contact details you already hold."
        : "Check again with --online to look the business up in the registry (one search request per payee), or check the tax id with the supplier.";
    case "not_watched":
      return `Passes, but a change of its account would go unseen: add it to a watch list (\`regwatch watch add --list NAME --tax-id ${context.taxBase ?? "TAX_ID"}\`, then \`regwatch reconcile\`).`;
    case "ok":
      return null;
  }
}
