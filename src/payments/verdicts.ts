/**
 * One verdict per payment row from what is known of the business and the account (pure). The
 * verdicts are ordered worst first; a row gets the worst that applies, and every verdict that
 * holds a payment comes with the next step that clears it (src/payments/next-step.ts). A row
 * without a tax number is judged as a payment to the business that holds its account.
 */

import { addDays } from "../dates.ts";
import type { Said } from "../said.ts";
import { taxIdProblemSaid } from "../taxid.ts";
import type { PaymentRow } from "./batch-row.ts";
import { detailSaid } from "./detail-said.ts";
import { type ChangeEvidence, unverifiedChanges } from "./evidence.ts";
import {
  indexKnowledge,
  type KnowledgeIndex,
  type PreparedRow,
  payeeByBase,
  prepareRow,
  registeredOwn,
} from "./knowledge-index.ts";
import { findMatchingName } from "./names.ts";
import type { StepVoice } from "./next-step.ts";
import {
  amountProblem,
  describeAdded,
  describeHolder,
  describeNameUnread,
  describeRemoved,
  describeUnreadStatus,
  describeVerification,
  unreadAmong,
} from "./verdict-details.ts";
import { finish, type Judging, withAlso } from "./verdict-row.ts";

export const VERDICTS = [
  "invalid_tax_id",
  "invalid_account",
  "unknown_account_holder",
  "business_ceased",
  "status_unverified",
  "business_suspended",
  "account_removed",
  "account_not_registered",
  "name_mismatch",
  "name_unverified",
  "invalid_amount",
  "account_recently_changed",
  "account_change_unverified",
  "account_unconfirmed",
  "unknown_business",
  "not_watched",
  "ok",
] as const;
export type Verdict = (typeof VERDICTS)[number];

/** Verdicts that let a payment go: everything else holds the batch (exit 2). */
export const PASSING: ReadonlySet<Verdict> = new Set(["ok", "not_watched"]);

/** A heading whose latest change regwatch could not read: what is stored for it may no longer hold. */
export interface UnreadHeading {
  heading: string;
  /** Day of the unread change. */
  since: string;
  /** Why its values are not known, in words. */
  why: string;
  /** The same as a reason code (src/payments/evidence.ts) and the stored error it quotes. */
  reason?: string;
  error?: string;
}

/** Headings whose values the guard judges by: an unread change of one holds the payment as unverified. */
export const STATUS_HEADINGS = ["status", "status_code"] as const;
export const NAME_HEADINGS = ["long_name", "full_name", "name", "short_name"] as const;
export const JUDGED_HEADINGS: ReadonlySet<string> = new Set<string>([...STATUS_HEADINGS, ...NAME_HEADINGS]);

export interface KnownBusiness {
  taxId: string;
  /** The name regwatch shows for it (profile, else search record). */
  name: string | null;
  /** 0 ceased, 1 operating, 2 suspended; null when no record says. */
  statusCode: number | null;
  /** companies, self_employed, budget_orgs, civil_orgs; null when no record says. */
  type?: string | null;
  /** Every name the registry gives it today and during the hold period (full, short, former). */
  names?: readonly string[];
  /** Headings whose latest change was not read (v_unread_headings). */
  unread?: readonly UnreadHeading[];
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
  /** Of an account no longer registered: the day a record or change first no longer listed it. */
  removedOn?: string | null;
}

/** The newest confirmation, made out of band, that an account belongs to a business. */
export interface Verification {
  taxId: string;
  account: string;
  by: string;
  /** Day of the verification in the registry's time zone. */
  on: string;
  note: string | null;
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
  onlineNotes: ReadonlyMap<string, Said>;
  /** The check asked the search interface (--online). */
  online?: boolean;
  /** Newest verification of each payee and account, by payeeKey(tax base, account). */
  verifications?: ReadonlyMap<string, Verification>;
  /** The accounts and changes above indexed already (loadKnowledge); made from them when absent. */
  index?: KnowledgeIndex;
}

export interface CheckedRow extends PaymentRow {
  verdict: Verdict;
  detail: string;
  /** The detail's sentences as codes and values (the console says them in its reader's language). */
  detailSaid: readonly Said[];
  /** What to do before the payment may go; null for ok. */
  nextStep: string | null;
  /** The next step's code and values (src/payments/next-step.ts nextStepSaid); null for ok. */
  nextStepSaid: Said | null;
  /** The payee's tax base: the file's when readable, else the business found holding the account. */
  taxBase: string | null;
  payeeFoundBy: "tax_id" | "account" | null;
  /** Canonical account, when readable. */
  account: string | null;
  /** The registry's name of the payee. */
  registryName: string | null;
  /** A verification that released a hold: who made it and on which day. */
  verifiedBy: string | null;
  verifiedOn: string | null;
}

/** The key of a payee and account (Knowledge.onlineNotes, Knowledge.verifications); "" for no payee. */
export function payeeKey(taxBase: string, account: string): string {
  return `${taxBase} ${account}`;
}

export interface JudgeOptions {
  today: string;
  holdDays: number;
  /** REGWATCH_PAYMENT_ACCEPT_UNCONFIRMED: an account no source has shown passes, with a warning. */
  acceptUnconfirmed?: boolean;
  /** Whose words the next steps are in: the CLI's commands (default) or the console's buttons. */
  voice?: StepVoice;
}

/** One empty list for every row without changes, accounts, names or detail, not one made per row. */
const NONE: readonly never[] = [];

/** `today` and the hold period decide what counts as recently added. */
export function judgeRow(
  row: PaymentRow,
  knowledge: Knowledge,
  options: JudgeOptions,
  index: KnowledgeIndex = indexKnowledge(knowledge),
  prepared: PreparedRow = prepareRow(row),
): CheckedRow {
  const { today, holdDays } = options;
  const parsed = prepared.account;
  const account = parsed.ok ? parsed.account : null;
  const found = payeeByBase(prepared.taxBase, account, index);
  // No tax number and nobody holds the account now, but one business did: the payment is to it, and the account is its removed one.
  const formerOnly = found.by === "none" && found.holders.length === 0 && found.former.length === 1;
  const payee = formerOnly ? { by: "account" as const, taxBase: found.former[0]! } : found;
  const taxBase = payee.by === "none" ? null : payee.taxBase;
  // The file's own tax base was checked when the row was prepared: only a problem is worded here.
  const taxProblem =
    taxBase === null || (payee.by === "tax_id" && prepared.validBase !== null)
      ? undefined
      : taxIdProblemSaid(taxBase);
  const readableBase = taxBase !== null && taxProblem === undefined ? taxBase : null;
  const business = readableBase ? knowledge.businesses.get(readableBase) : undefined;
  const evidence = readableBase ? (index.changesByTaxId.get(readableBase) ?? NONE) : NONE;
  const unverified = evidence.length > 0 ? unverifiedChanges(evidence, readableBase!, today, holdDays) : NONE;
  // A key is made only where there is something to look up: most batches have no notes or verifications.
  const onlineNote =
    (account &&
      knowledge.onlineNotes.size > 0 &&
      knowledge.onlineNotes.get(payeeKey(readableBase ?? "", account))) ||
    null;
  const badAmount = amountProblem(row);
  const j: Judging = {
    row,
    knowledge,
    holdDays,
    readableBase,
    account,
    foundBy: payee.by === "none" ? null : payee.by,
    business,
    unverified,
    badAmount,
    notes: [],
    onlineNote,
    verified: null,
    voice: options.voice ?? "cli",
  };
  // taxProblem is the payee's: with a tax number, taxBase is the one it names.
  if (payee.by === "tax_id" && taxProblem) return finish(j, "invalid_tax_id", taxProblem);
  if (!parsed.ok) return finish(j, "invalid_account", parsed.said);
  const acct = parsed.account;
  if (payee.by === "none") {
    const why =
      payee.holders.length > 1
        ? detailSaid.holdersSeveral(payee.holders.map((t) => describeHolder(t, knowledge)))
        : payee.former.length > 0
          ? detailSaid.holdersFormer(payee.former.map((t) => describeHolder(t, knowledge)))
          : detailSaid.holderUnknown();
    return finish(j, "unknown_account_holder", badAmount ? [why, badAmount] : why);
  }
  const payeeTax = payee.taxBase;
  if (payee.by === "account")
    j.notes.push(
      formerOnly
        ? detailSaid.formerHolder(describeHolder(payeeTax, knowledge))
        : detailSaid.foundByAccount(describeHolder(payeeTax, knowledge)),
    );
  const statusUnread = unreadAmong(business, STATUS_HEADINGS);
  if (statusUnread) {
    return finish(
      j,
      "status_unverified",
      withAlso(j, describeUnreadStatus(statusUnread, business?.statusCode)),
    );
  }
  if (business?.statusCode === 0) return finish(j, "business_ceased", withAlso(j, detailSaid.ceased()));
  if (business?.statusCode === 2) {
    return finish(j, "business_suspended", withAlso(j, detailSaid.suspended()));
  }
  const own = index.byTaxId.get(payeeTax) ?? NONE;
  const known = business !== undefined || own.length > 0;
  const match = registeredOwn(own, acct);
  // Sole proprietors (and other non-companies) have no accounts in the registry's data: that alone holds nothing.
  const listsNoAccounts = own.length === 0 && business?.type != null && business.type !== "companies";
  if (known && !match) {
    const holders = (index.byAccount.get(acct) ?? []).filter(
      (a) => a.currentlyRegistered && a.taxId !== payeeTax,
    );
    const formerly = own.find((a) => a.account === acct);
    const registered = own.filter((a) => a.currentlyRegistered);
    if (formerly && holders.length === 0) {
      return finish(j, "account_removed", withAlso(j, describeRemoved(formerly, registered)));
    }
    if (holders.length > 0 || !listsNoAccounts) {
      const why =
        holders.length > 0
          ? detailSaid.registeredTo(
              [...new Set(holders.map((h) => h.taxId))].map((t) => describeHolder(t, knowledge)),
            )
          : formerly
            ? detailSaid.formerlyOwn()
            : registered.length === 0
              ? detailSaid.noAccounts()
              : detailSaid.registeredAccounts(registered.map((a) => a.account));
      return finish(j, "account_not_registered", withAlso(j, why));
    }
    j.notes.push(detailSaid.kindListsNoAccounts());
  }
  // Nothing ever showed the account: not the registry (it lists none for this kind of business), nor any other source.
  const unconfirmed = known && !match && !index.byAccount.has(acct);
  const names = business?.names ?? NONE;
  if (row.name !== null && row.name.trim() !== "") {
    const nameUnread = unreadAmong(business, NAME_HEADINGS);
    if (names.length === 0) j.notes.push(detailSaid.nameNotCompared());
    else if (findMatchingName(row.name, names) === null) {
      if (nameUnread) {
        return finish(
          j,
          "name_unverified",
          withAlso(j, describeNameUnread(row.name, payeeTax, names, nameUnread)),
        );
      }
      return finish(j, "name_mismatch", withAlso(j, detailSaid.nameMismatch(row.name, payeeTax, names)));
    }
  }
  if (badAmount) return finish(j, "invalid_amount", withAlso(j, badAmount));
  const verification = knowledge.verifications?.size
    ? (knowledge.verifications.get(payeeKey(payeeTax, acct)) ?? null)
    : null;
  const recent = match?.addedOn && match.addedOn >= addDays(today, -holdDays) ? match.addedOn : null;
  // The latest of the two kinds of change (ISO days compare as text).
  let newest = recent;
  for (const c of unverified) if (newest === null || c.changeDate > newest) newest = c.changeDate;
  if (newest !== null && verification && verification.on >= newest) {
    j.verified = verification;
    j.notes.unshift(describeVerification(verification));
  } else {
    const older: Said[] = verification
      ? [detailSaid.verifiedBefore(verification.by, verification.on, verification.note, newest!)]
      : [];
    if (recent) {
      return finish(
        j,
        "account_recently_changed",
        [...withAlso(j, describeAdded(match!, holdDays)), ...older],
        recent,
      );
    }
    if (unverified.length > 0) {
      return finish(j, "account_change_unverified", [
        ...unverified.map((c) => detailSaid.unverifiedChange(c, holdDays)),
        ...older,
      ]);
    }
  }
  if (unconfirmed && j.verified === null) {
    if (verification) {
      j.verified = verification;
      j.notes.unshift(describeVerification(verification));
    } else if (options.acceptUnconfirmed) {
      j.notes.push(detailSaid.unconfirmedAccepted());
    } else return finish(j, "account_unconfirmed", withAlso(j, detailSaid.unconfirmed()));
  }
  if (!known) return finish(j, "unknown_business", detailSaid.unknownBusiness(payeeTax));
  if (!knowledge.watched.has(payeeTax)) return finish(j, "not_watched", detailSaid.notWatched());
  return finish(j, "ok", NONE);
}

export function judgeBatch(
  rows: readonly PreparedRow[],
  knowledge: Knowledge,
  options: JudgeOptions,
): CheckedRow[] {
  const index = indexKnowledge(knowledge);
  return rows.map((p) => judgeRow(p.row, knowledge, options, index, p));
}

export function severity(verdict: Verdict): number {
  return VERDICTS.indexOf(verdict);
}
