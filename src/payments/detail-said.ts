/**
 * The sentences of the verdicts' details as data (pure): each a catalog code with its values and
 * the English the CLI prints (src/said.ts). payment_checks keeps the codes beside the English
 * text (migration 0045), so the console says a stored detail in its reader's language.
 */

import type { UnverifiedChange } from "../changes/evidence.ts";
import { type Said, said } from "../said.ts";

/** The business's status codes as the English detail names them. */
const STATUS_WORDS: Record<number, string> = { 0: "ceased", 1: "operating", 2: "suspended" };

/** Where a status's evidence came from, as the English detail says it. */
const SOURCE_WORDS: Record<string, string> = {
  change_file: "a change file",
  search: "a search record",
  profile: "its profile",
};

/** "ceased" or "suspended", with the day and source of the evidence when known. */
function statusSaid(
  status: "ceased" | "suspended",
  on: string | null | undefined,
  source: string | null | undefined,
): Said {
  if (!on) return said(`pay.detail.${status}`, {}, `the registry shows the business as ${status}`);
  const from = source && source in SOURCE_WORDS ? source : "profile";
  return said(
    `pay.detail.${status}On`,
    { day: on, source: from },
    `the registry shows the business as ${status} (as of ${on}, from ${SOURCE_WORDS[from]})`,
  );
}

export const detailSaid = {
  holdersSeveral: (holders: readonly string[]) =>
    said(
      "pay.detail.holdersSeveral",
      { holders },
      `the file gives no tax number and the account is registered to several businesses: ${holders.join(" and ")}`,
    ),
  holdersFormer: (holders: readonly string[]) =>
    said(
      "pay.detail.holdersFormer",
      { holders },
      `the file gives no tax number and no business holds the account now (it was registered to ${holders.join(", ")})`,
    ),
  holderUnknown: () =>
    said(
      "pay.detail.holderUnknown",
      {},
      "the file gives no tax number and no source regwatch has (search records, profiles, change values) knows who holds the account",
    ),
  formerHolder: (holder: string) =>
    said(
      "pay.detail.formerHolder",
      { holder },
      `the file gives no tax number; the account was registered to ${holder}`,
    ),
  foundByAccount: (holder: string) =>
    said("pay.detail.foundByAccount", { holder }, `payee found by its account: ${holder}`),
  statusUnread: (
    since: string,
    reason: string,
    error: string,
    why: string,
    statusCode: number | null | undefined,
  ) => {
    const last = statusCode === null || statusCode === undefined ? undefined : STATUS_WORDS[statusCode];
    return said(
      "pay.detail.statusUnread",
      { since, reason, error, heading: "status", status: last === undefined ? "none" : String(statusCode) },
      `the business's status is not verified: it changed on ${since} and regwatch could not read the change (${why})${last ? `; the status known before it (${last}) may no longer hold` : ""}`,
    );
  },
  ceased: (on?: string | null, source?: string | null) => statusSaid("ceased", on, source),
  suspended: (on?: string | null, source?: string | null) => statusSaid("suspended", on, source),
  removed: (on: string | null | undefined, registered: readonly string[]) =>
    said(
      "pay.detail.removed",
      { day: on ?? "", accounts: registered },
      `this business removed this account${on ? ` on ${on}` : ""}: do not pay it; confirm the new account${registered.length > 0 ? `; its registered account(s) now: ${registered.join(", ")}` : ""}`,
    ),
  registeredTo: (holders: readonly string[]) =>
    said("pay.detail.registeredTo", { holders }, `the account is registered to ${holders.join(", ")}`),
  formerlyOwn: () =>
    said(
      "pay.detail.formerlyOwn",
      {},
      "the account was registered to this business before, but no longer is",
    ),
  noAccounts: () => said("pay.detail.noAccounts", {}, "the registry shows no bank account for this business"),
  registeredAccounts: (accounts: readonly string[]) =>
    said(
      "pay.detail.registeredAccounts",
      { accounts },
      `the business's registered account(s): ${accounts.join(", ")}`,
    ),
  kindListsNoAccounts: () =>
    said(
      "pay.detail.kindListsNoAccounts",
      {},
      "the registry lists no bank accounts for this kind of business (sole proprietor or similar)",
    ),
  nameNotCompared: () =>
    said(
      "pay.detail.nameNotCompared",
      {},
      "the name could not be compared: the registry gives no name for the business",
    ),
  nameUnread: (
    name: string,
    taxId: string,
    names: readonly string[],
    since: string,
    reason: string,
    error: string,
    why: string,
  ) =>
    said(
      "pay.detail.nameUnread",
      { name, taxId, names, since, reason, error, heading: "name" },
      `the file names the payee "${name}", none of the names known of ${taxId} (${quoted(names)}); but its name changed on ${since} and regwatch could not read that change (${why}), so the file's may be its new name`,
    ),
  nameMismatch: (name: string, taxId: string, names: readonly string[]) =>
    said(
      "pay.detail.nameMismatch",
      { name, taxId, names },
      `the file names the payee "${name}"; the registry's names of ${taxId}: ${quoted(names)}`,
    ),
  verified: (by: string, on: string, note: string | null) =>
    said(
      "pay.detail.verified",
      { by, day: on, note: note ?? "" },
      `verified by ${by} on ${on}${note ? ` (${note})` : ""}`,
    ),
  verifiedBefore: (by: string, on: string, note: string | null, change: string) =>
    said(
      "pay.detail.verifiedBefore",
      { by, day: on, note: note ?? "", change },
      `verified by ${by} on ${on}${note ? ` (${note})` : ""}, before the change of ${change}`,
    ),
  added: (day: string, source: string | null | undefined, holdDays: number) => {
    const first = source ? ADDED_SOURCE[source] : undefined;
    const how = first
      ? ` (${first} that day is the first to list it; the business's record before did not)`
      : "";
    return said(
      "pay.detail.added",
      { day, source: first ? source! : "none", holdDays },
      `the account was added on ${day}${how}, within the ${holdDays}-day hold`,
    );
  },
  unverifiedChange: (c: UnverifiedChange, holdDays: number) =>
    said(
      "pay.detail.unverifiedChange",
      {
        day: c.changeDate,
        reason: c.reason,
        error: c.error ?? "",
        heading: "bank_accounts",
        hold: c.withinHold ? "within" : "past",
        holdDays,
      },
      `the bank_accounts change of ${c.changeDate} is not verified: ${c.why}` +
        (c.withinHold
          ? ` (within the ${holdDays}-day hold)`
          : "; no search record read since, nor a later change, says which accounts hold"),
    ),
  unconfirmed: () =>
    said(
      "pay.detail.unconfirmed",
      {},
      "no source regwatch has (search records, profiles, change values) has ever shown this account: nothing confirms it is the payee's",
    ),
  unconfirmedAccepted: () =>
    said(
      "pay.detail.unconfirmedAccepted",
      {},
      "warning: no source regwatch has (search records, profiles, change values) has ever shown this account: nothing confirms it is the payee's; passed because REGWATCH_PAYMENT_ACCEPT_UNCONFIRMED is set",
    ),
  unknownBusiness: (taxId: string) =>
    said("pay.detail.unknownBusiness", { taxId }, `no record of tax id ${taxId}`),
  notWatched: () =>
    said("pay.detail.notWatched", {}, "on no watch list: a change of its account would go unseen"),
  amountCannotPay: (written: string, problem: string) =>
    said(
      "pay.detail.amountCannotPay",
      { written, problem },
      `the amount "${written}" cannot be paid: ${problem}`,
    ),
  amountEmpty: () => said("pay.detail.amountEmpty", {}, "the amount cell is empty"),
  amountUnreadable: (written: string) =>
    said("pay.detail.amountUnreadable", { written }, `the amount "${written}" cannot be read`),
  amountZero: (written: string) =>
    said("pay.detail.amountZero", { written }, `the amount "${written}" is zero`),
  amountNegative: (written: string) =>
    said("pay.detail.amountNegative", { written }, `the amount "${written}" is negative`),
  notCheckedOnline: (why: Said, stale: Said | null) =>
    said(
      "pay.detail.notCheckedOnline",
      { cause: why.code, error: String(why.values.error ?? ""), ...staleValues(stale) },
      `not checked online: ${why.text}${stale ? ` (${stale.text})` : ""}`,
    ),
  quotaSpent: () => said("pay.online.quotaSpent", {}, "the monthly search quota is used up"),
  searchFailed: (error: string) => said("pay.online.searchFailed", { error }, `the search failed: ${error}`),
  askedNoRecord: (value: string, stale: Said | null) =>
    said(
      "pay.detail.askedNoRecord",
      { value, ...staleValues(stale) },
      `asked online by registration number ${value}, but the answer holds no record of this tax id${stale ? ` (${stale.text})` : ""}`,
    ),
  searchFoundNone: () =>
    said(
      "pay.detail.searchFoundNone",
      {},
      "the registry's bank-account search (companies only) found no business holding it",
    ),
} satisfies Record<string, (...args: never[]) => Said>;

const ADDED_SOURCE: Record<string, string> = {
  search: "a search record read",
  profile: "the business profile as of",
  baseline: "a search record read",
};

/** Why a record was asked for again, kept as its code and values (said-words.ts says it as `stale`). */
function staleValues(stale: Said | null): Record<string, string | number> {
  if (stale === null) return { stale: "" };
  const out: Record<string, string | number> = { stale: stale.text, staleCode: stale.code };
  for (const [key, value] of Object.entries(stale.values)) {
    if (typeof value !== "object") out[`stale${key[0]!.toUpperCase()}${key.slice(1)}`] = value;
  }
  return out;
}

function quoted(names: readonly string[]): string {
  return names.map((n) => `"${n}"`).join(", ");
}

/** The English detail of a row: its sentences joined, repeats said once. */
export function detailText(parts: readonly Said[]): string {
  if (parts.length === 1) return parts[0]!.text;
  return [...new Set(parts.map((p) => p.text))].filter((t) => t !== "").join("; ");
}
