/**
 * One verdict per payment row from what is known of the business and the account (pure). The
 * verdicts are ordered worst first; a row gets the worst that applies, and every verdict that
 * holds a payment comes with the next step that clears it (src/payments/next-step.ts).
 */
import { addDays } from "../dates.ts";
import { describeTaxIdProblem } from "../taxid.ts";
import { parseAccount } from "./accounts.ts";
import { type PaymentRow, taxBaseOfRow } from "./batch-csv.ts";
import { type ChangeEvidence, describeUnverified, unverifiedChanges } from "./evidence.ts";
import { nextStep } from "./next-step.ts";

export const VERDICTS = [
  "invalid_tax_id",
  "invalid_account",
  "business_ceased",
  "business_suspended",
  "account_not_registered",
  "account_recently_changed",
  "account_change_unverified",
  "unknown_business",
  "not_watched",
  "ok",
] as const;
export type Verdict = (typeof VERDICTS)[number];

/** Verdicts that let a payment go: everything else holds the batch (exit 2). */
export const PASSING: ReadonlySet<Verdict> = new Set(["ok", "not_watched"]);

export interface KnownBusiness {
  taxId: string;
  name: string | null;
  /** 0 ceased, 1 operating, 2 suspended; null when no record says. */
  statusCode: number | null;
}

/** One business holding one account, as regwatch.v_bank_accounts shows it. */
export interface KnownAccount {
  taxId: string;
  account: string;
  currentlyRegistered: boolean;
  /** Latest day the account was added (by a change, or first listed by a newer record). */
  addedOn: string | null;
  /** What showed that addition: change, search, profile or baseline. */
  addedSource?: string | null;
}

export interface Knowledge {
  businesses: ReadonlyMap<string, KnownBusiness>;
  /** Tax ids on a watch list. */
  watched: ReadonlySet<string>;
  /** Every business-account pair whose account or business occurs in the batch. */
  accounts: readonly KnownAccount[];
  /** bank_accounts changes of the batch's businesses whose values are not known. */
  changes: readonly ChangeEvidence[];
  /** What --online could not settle for a row ("not checked online: ..."), by payeeKey(tax base, account). */
  onlineNotes: ReadonlyMap<string, string>;
  /** The check asked the search interface (--online). */
  online?: boolean;
}

export interface CheckedRow extends PaymentRow {
  verdict: Verdict;
  detail: string;
  /** What to do before the payment may go; null for ok. */
  nextStep: string | null;
  /** Tax base number and canonical account, when readable. */
  taxBase: string | null;
  account: string | null;
  registryName: string | null;
}

/** The key of a row's payee and account in Knowledge.onlineNotes. */
export function payeeKey(taxBase: string, account: string): string {
  return `${taxBase} ${account}`;
}

const SOURCE_WORDS: Record<string, string> = {
  search: "a search record read",
  profile: "the business profile as of",
  baseline: "a search record read",
};

function describeAdded(match: KnownAccount, holdDays: number): string {
  const first = match.addedSource ? SOURCE_WORDS[match.addedSource] : undefined;
  const how = first
    ? ` (${first} that day is the first to list it; the business's record before did not)`
    : "";
  return `the account was added on ${match.addedOn}${how}, within the ${holdDays}-day hold`;
}

/** `today` and the hold period decide what counts as recently added. */
export function judgeRow(row: PaymentRow, knowledge: Knowledge, today: string, holdDays: number): CheckedRow {
  const taxBase = taxBaseOfRow(row.taxId);
  const parsed = parseAccount(row.bankAccount);
  const account = parsed.ok ? parsed.account : null;
  const business = knowledge.businesses.get(taxBase);
  const readableBase = describeTaxIdProblem(taxBase) === undefined ? taxBase : null;
  const unverified = readableBase ? unverifiedChanges(knowledge.changes, taxBase, today, holdDays) : [];
  const onlineNote = (account && knowledge.onlineNotes.get(payeeKey(taxBase, account))) || "";
  const result = (verdict: Verdict, detail: string, addedOn: string | null = null): CheckedRow => ({
    ...row,
    verdict,
    detail: [detail, onlineNote].filter((part) => part !== "").join("; "),
    nextStep: nextStep(verdict, {
      taxBase: readableBase,
      holdDays,
      addedOn,
      unverified,
      online: knowledge.online ?? false,
    }),
    taxBase: readableBase,
    account,
    registryName: business?.name ?? null,
  });
  // A worse verdict still names the unverified change: it may be why the account looks wrong.
  const alsoUnverified = unverified.length > 0 ? `; ${describeUnverified(unverified, holdDays)}` : "";

  const taxProblem = describeTaxIdProblem(taxBase);
  if (taxProblem) return result("invalid_tax_id", taxProblem);
  if (!parsed.ok) return result("invalid_account", parsed.problem);
  const acct = parsed.account;
  if (business?.statusCode === 0)
    return result("business_ceased", "the registry shows the business as ceased");
  if (business?.statusCode === 2) {
    return result("business_suspended", "the registry shows the business as suspended");
  }
  const own = knowledge.accounts.filter((a) => a.taxId === taxBase);
  const registered = own.filter((a) => a.currentlyRegistered);
  const known = business !== undefined || own.length > 0;
  const match = registered.find((a) => a.account === acct);
  if (known && !match) {
    const holders = knowledge.accounts.filter((a) => a.account === acct && a.currentlyRegistered);
    const formerly = own.some((a) => a.account === acct);
    const why =
      holders.length > 0
        ? `the account is registered to ${holders.map((h) => describeHolder(h.taxId, knowledge)).join(", ")}`
        : formerly
          ? "the account was registered to this business before, but no longer is"
          : registered.length === 0
            ? "the registry shows no bank account for this business"
            : `the business's registered account(s): ${registered.map((a) => a.account).join(", ")}`;
    return result("account_not_registered", why + alsoUnverified);
  }
  if (match?.addedOn && match.addedOn >= addDays(today, -holdDays)) {
    return result("account_recently_changed", describeAdded(match, holdDays) + alsoUnverified, match.addedOn);
  }
  if (unverified.length > 0) {
    return result("account_change_unverified", describeUnverified(unverified, holdDays));
  }
  if (!known) return result("unknown_business", `no record of tax id ${taxBase}`);
  if (!knowledge.watched.has(taxBase)) {
    return result("not_watched", "on no watch list: a change of its account would go unseen");
  }
  return result("ok", "");
}

function describeHolder(taxId: string, knowledge: Knowledge): string {
  const name = knowledge.businesses.get(taxId)?.name;
  return name ? `${taxId} (${name})` : taxId;
}

export function judgeBatch(
  rows: readonly PaymentRow[],
  knowledge: Knowledge,
  today: string,
  holdDays: number,
): CheckedRow[] {
  return rows.map((row) => judgeRow(row, knowledge, today, holdDays));
}

export function severity(verdict: Verdict): number {
  return VERDICTS.indexOf(verdict);
}
