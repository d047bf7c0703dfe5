/**
 * One verdict per payment row from what is known of the business and the account (pure). The
 * verdicts are ordered worst first; a row gets the worst that applies.
 */
import { addDays } from "../dates.ts";
import { describeTaxIdProblem } from "../taxid.ts";
import { parseAccount } from "./accounts.ts";
import { type PaymentRow, taxBaseOfRow } from "./batch-csv.ts";

export const VERDICTS = [
  "invalid_tax_id",
  "invalid_account",
  "business_ceased",
  "business_suspended",
  "account_not_registered",
  "account_recently_changed",
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
  /** Date of the latest change that added the account, when a change file said so. */
  addedOn: string | null;
}

export interface Knowledge {
  businesses: ReadonlyMap<string, KnownBusiness>;
  /** Tax ids on a watch list. */
  watched: ReadonlySet<string>;
  /** Every business-account pair whose account or business occurs in the batch. */
  accounts: readonly KnownAccount[];
  /** Why an account could not be asked online, by canonical account (absent: asked or not needed). */
  notCheckedOnline: ReadonlyMap<string, string>;
}

export interface CheckedRow extends PaymentRow {
  verdict: Verdict;
  detail: string;
  /** Tax base number and canonical account, when readable. */
  taxBase: string | null;
  account: string | null;
  registryName: string | null;
}

function onlineNote(knowledge: Knowledge, account: string): string {
  const why = knowledge.notCheckedOnline.get(account);
  return why === undefined ? "" : `; not checked online: ${why}`;
}

/** `today` and the hold period decide what counts as recently added. */
export function judgeRow(row: PaymentRow, knowledge: Knowledge, today: string, holdDays: number): CheckedRow {
  const taxBase = taxBaseOfRow(row.taxId);
  const parsed = parseAccount(row.bankAccount);
  const account = parsed.ok ? parsed.account : null;
  const business = knowledge.businesses.get(taxBase);
  const result = (verdict: Verdict, detail: string): CheckedRow => ({
    ...row,
    verdict,
    detail,
    taxBase: describeTaxIdProblem(taxBase) === undefined ? taxBase : null,
    account,
    registryName: business?.name ?? null,
  });

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
    return result("account_not_registered", why + onlineNote(knowledge, acct));
  }
  if (match?.addedOn && match.addedOn >= addDays(today, -holdDays)) {
    return result(
      "account_recently_changed",
      `the account was added on ${match.addedOn}, within the ${holdDays}-day hold`,
    );
  }
  if (!known) {
    return result("unknown_business", `no record of tax id ${taxBase}${onlineNote(knowledge, acct)}`);
  }
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
