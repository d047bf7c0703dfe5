/**
 * The next steps of a batch checked in the console, in the console's words (pure): what a clerk
 * does there (the "Check again" button, its "online" box, the "Account confirmed" form of the row,
 * the Lists page), never a command line. Verdicts whose advice names no command are left to
 * next-step.ts (undefined here).
 */
import { addDays } from "../dates.ts";
import type { StepContext, Verdict } from "./verdict-terms.ts";

/** User-visible sentences of this module ({…} are filled in). */
export const CONSOLE_STEP_TEXT = {
  confirm:
    "confirm the account with the supplier by phone on a number you already hold, not one from the invoice or from a letter announcing a new account",
  statusUnverified:
    "Do not pay until the status is known: press “Check again” with “online” ticked, which reads the business's current record.",
  statusUnverifiedOnline:
    "Do not pay until the status is known: the online check could not read the business's current record; open the business's page and look it up, then press “Check again”, or ask the supplier on contact details you already hold.",
  nameUnverified:
    "Do not pay until the name is known: press “Check again” with “online” ticked, which reads the business's current record.",
  nameUnverifiedOnline:
    "Do not pay until the name is known: the online check could not read the business's current record; open the business's page and look it up, then press “Check again”.",
  recordIt: "Before paying, {confirm}, then record it with the row's “Account confirmed” button.",
  passesFrom: "Without that, the check passes it from {day}.",
  unconfirmed:
    "Before paying, {confirm}, then record it with the row's “Account confirmed” button. No source has shown this account, so nothing else releases it.",
  suspended:
    "Do not pay while the business is suspended; {confirm}, and press “Check again” with “online” ticked to read its current status.",
  notRegistered:
    "Do not pay this account: {confirm}. If the supplier did change banks, press “Check again” with “online” ticked to read its current record.",
  changeUnverified:
    "The registry changed this business's accounts and regwatch does not know the new ones yet (the next scheduled sync may fetch them). Until then, {confirm} before paying{wait}, and record it with the row's “Account confirmed” button.",
  waitUntil: "; the check holds the payment until {day} has passed",
  unknownHolder:
    "Press “Check again” with “online” ticked to look the account up in the registry (companies only), or ask the payee for their tax number on a number you already hold and add it to the file.",
  unknownBusiness:
    "Press “Check again” with “online” ticked to look the business up in the registry (one search per payee), or check the tax id with the supplier.",
  notWatched:
    "Passes, but a change of its account would go unseen: ask an admin to add it to a watch list (the Lists page).",
} as const;

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}

const confirm = CONSOLE_STEP_TEXT.confirm;

export function consoleStep(verdict: Verdict, context: StepContext): string | null | undefined {
  const T = CONSOLE_STEP_TEXT;
  switch (verdict) {
    case "status_unverified":
      return context.online ? T.statusUnverifiedOnline : T.statusUnverified;
    case "name_unverified":
      return context.online ? T.nameUnverifiedOnline : T.nameUnverified;
    case "account_unconfirmed":
      return fill(T.unconfirmed, { confirm });
    case "business_suspended":
      return fill(T.suspended, { confirm });
    case "account_not_registered":
      return fill(T.notRegistered, { confirm });
    case "account_recently_changed": {
      const passes = context.addedOn ? addDays(context.addedOn, context.holdDays + 1) : null;
      const first = fill(T.recordIt, { confirm });
      return passes ? `${first} ${fill(T.passesFrom, { day: passes })}` : first;
    }
    case "account_change_unverified": {
      const held = context.unverified.filter((c) => c.withinHold);
      const wait = held[0] ? fill(T.waitUntil, { day: addDays(held[0].changeDate, context.holdDays) }) : "";
      return fill(T.changeUnverified, { confirm, wait });
    }
    case "unknown_account_holder":
      return context.online ? undefined : T.unknownHolder;
    case "unknown_business":
      return context.online ? undefined : T.unknownBusiness;
    case "not_watched":
      return T.notWatched;
    default:
      return undefined;
  }
}
