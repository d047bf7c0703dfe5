/**
 * One verdict per payment row from what is known of the business and the account (pure). The
 * verdicts are ordered worst first; a row gets the worst that applies, and every verdict that
 * holds a payment comes with the next step that clears it (src/payments/next-step.ts). A row
 * without a tax number is judged as a payment to the business that holds its account.
 */

import { unverifiedChanges } from "../changes/evidence.ts";
import { addDays } from "../dates.ts";
import type { PaymentRow } from "../formats/batch-row.ts";
import type { Said } from "../said.ts";
import { taxIdProblemSaid } from "../taxid.ts";
import { detailSaid } from "./detail-said.ts";
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
import {
  type CheckedRow,
  type Knowledge,
  NAME_HEADINGS,
  STATUS_HEADINGS,
  VERDICTS,
  type Verdict,
} from "./verdict-terms.ts";

export {
  type CheckedRow,
  JUDGED_HEADINGS,
  type Knowledge,
  type KnownAccount,
  type KnownBusiness,
  NAME_HEADINGS,
  PASSING,
  STATUS_HEADINGS,
  type UnreadHeading,
  VERDICTS,
  type Verdict,
  type Verification,
} from "./verdict-terms.ts";

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
  if (business?.statusCode === 0) {
    return finish(
      j,
      "business_ceased",
      withAlso(j, detailSaid.ceased(business.statusOn, business.statusSource)),
    );
  }
  if (business?.statusCode === 2) {
    return finish(
      j,
      "business_suspended",
      withAlso(j, detailSaid.suspended(business.statusOn, business.statusSource)),
    );
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
