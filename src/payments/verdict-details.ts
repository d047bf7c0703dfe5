/**
 * The verdicts' details (pure): a bad amount as written, when an account was added, who holds an
 * account, and who verified one, each as a sentence with its code (src/payments/detail-said.ts);
 * and which of a business's unread headings a verdict names.
 */

import type { PaymentRow } from "../formats/batch-row.ts";
import type { Said } from "../said.ts";
import { detailSaid } from "./detail-said.ts";
import type { Knowledge, KnownAccount, KnownBusiness, UnreadHeading, Verification } from "./verdict-terms.ts";

/** Why the row's amount cannot be paid, naming it as written; undefined when it can (or none is given). */
export function amountProblem(row: PaymentRow): Said | undefined {
  const written = row.amountRaw ?? row.amount ?? "";
  if (row.amountProblem) return detailSaid.amountCannotPay(written, row.amountProblem);
  if (row.amount === null) {
    return row.amountRaw !== null && row.amountRaw.trim() === ""
      ? detailSaid.amountEmpty()
      : row.amountRaw !== null
        ? detailSaid.amountUnreadable(written)
        : undefined;
  }
  const value = Number(row.amount);
  if (value === 0) return detailSaid.amountZero(written);
  if (value < 0 || row.amount.startsWith("-")) return detailSaid.amountNegative(written);
  return undefined;
}

export function describeAdded(match: KnownAccount, holdDays: number): Said {
  return detailSaid.added(match.addedOn ?? "", match.addedSource, holdDays);
}

export function describeHolder(taxId: string, knowledge: Knowledge): string {
  const name = knowledge.businesses.get(taxId)?.name;
  return name ? `${taxId} (${name})` : taxId;
}

export function describeVerification(v: Verification): Said {
  return detailSaid.verified(v.by, v.on, v.note);
}

export function describeUnreadStatus(unread: UnreadHeading, statusCode: number | null | undefined): Said {
  return detailSaid.statusUnread(
    unread.since,
    unread.reason ?? "",
    unread.error ?? "",
    unread.why,
    statusCode,
  );
}

export function describeRemoved(removed: KnownAccount, registered: readonly KnownAccount[]): Said {
  return detailSaid.removed(
    removed.removedOn,
    registered.map((a) => a.account),
  );
}

export function describeNameUnread(
  name: string,
  taxId: string,
  names: readonly string[],
  unread: UnreadHeading,
): Said {
  return detailSaid.nameUnread(
    name,
    taxId,
    names,
    unread.since,
    unread.reason ?? "",
    unread.error ?? "",
    unread.why,
  );
}

/** The newest of the business's unread headings among `headings`. */
export function unreadAmong(
  business: KnownBusiness | undefined,
  headings: readonly string[],
): UnreadHeading | null {
  const unread = business?.unread;
  // Nearly every business has none: no loop is set up for them (twice per row).
  if (unread === undefined || unread.length === 0) return null;
  let newest: UnreadHeading | null = null;
  for (const u of unread)
    if (headings.includes(u.heading) && (newest === null || u.since > newest.since)) newest = u;
  return newest;
}
