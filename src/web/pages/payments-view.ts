/**
 * Recorded payment checks as the console shows them, pure: each verdict in words with a colour
 * (held red or amber, passing green), totals per currency, and the row lines of a batch. The
 * verdicts themselves are src/payments/verdicts.ts's.
 */

import { formatsFor } from "../../i18n/format.ts";
import { type MessageKey, type MessageValues, type Translator, translatorFor } from "../../i18n/messages.ts";
import { storedWords } from "../../i18n/said-words.ts";
import { wordOf } from "../../i18n/words.ts";
import { PASSING, type Verdict } from "../../payments/verdicts.ts";
import type { BatchTotal, PaymentBatchRow, PaymentCheckRow } from "../sql/payments.ts";

export type Severity = "red" | "amber" | "green";

const SEVERITY: Record<Verdict, Severity> = {
  invalid_tax_id: "red",
  invalid_account: "red",
  unknown_account_holder: "red",
  business_ceased: "red",
  status_unverified: "red",
  business_suspended: "red",
  account_removed: "red",
  account_not_registered: "red",
  name_mismatch: "red",
  name_unverified: "amber",
  invalid_amount: "red",
  account_recently_changed: "amber",
  account_change_unverified: "amber",
  account_unconfirmed: "amber",
  unknown_business: "amber",
  not_watched: "green",
  ok: "green",
};

/** A verdict's words in the reader's language (its code when the catalog has none) and colour. */
export function verdictWords(
  verdict: string,
  i18n: Translator = translatorFor("en"),
): { words: string; severity: Severity; held: boolean } {
  return {
    words: wordOf(i18n, "verdict", verdict),
    severity: SEVERITY[verdict as Verdict] ?? "red",
    held: !PASSING.has(verdict as Verdict),
  };
}

/** One recorded row as a line of the batch page or the business page. */
export function paymentCheckLines<T extends PaymentCheckRow>(
  rows: readonly T[],
  i18n: Translator = translatorFor("en"),
) {
  // Days have no zone: any zone's formats say them alike.
  const formats = formatsFor(i18n.locale, "UTC");
  return rows.map((r) => ({
    ...r,
    // Said in the reader's language from the stored codes; rows recorded before keep their English.
    detail: storedWords(i18n, formats, r.detailSaid, r.detail),
    nextStep: storedWords(i18n, formats, r.nextStepSaid, r.nextStep),
    ...verdictWords(r.verdict, i18n),
    payee: r.registryName ?? r.name ?? "",
    amountText: amountText(r.amount, r.currency, r.amountRaw),
  }));
}

/** "1 250 000.50 HUF": the exact stored amount with its digits grouped, or the text as written. */
export function amountText(amount: string | null, currency: string | null, raw: string | null): string {
  if (amount === null) return raw ?? "";
  const [whole, fraction] = amount.split(".");
  const sign = whole!.startsWith("-") ? "-" : "";
  const digits = whole!.replace("-", "").replace(/\B(?=(\d{3})+(?!\d))/g, " ");
  return `${sign}${digits}${fraction ? `.${fraction}` : ""}${currency ? ` ${currency}` : ""}`;
}

export function totalLines(totals: readonly BatchTotal[]) {
  return totals.map((t) => ({
    currency: t.currency || null,
    amount: t.amount,
    rows: t.rows,
    held: t.held,
    heldRows: t.held_rows,
  }));
}

/** How the file was read, as catalog messages the page joins. */
export function batchSummary(batch: PaymentBatchRow) {
  const layout: { key: MessageKey; values: MessageValues }[] = [];
  if (batch.encoding) layout.push({ key: "batch.layout.encoding", values: { value: batch.encoding } });
  if (batch.delimiter === "\t") layout.push({ key: "batch.layout.tabs", values: {} });
  else if (batch.delimiter)
    layout.push({ key: "batch.layout.delimiter", values: { value: batch.delimiter } });
  if (batch.holdDays !== null) layout.push({ key: "batch.layout.hold", values: { days: batch.holdDays } });
  if (batch.checkedOn) layout.push({ key: "batch.layout.checkedOn", values: { day: batch.checkedOn } });
  return {
    ...batch,
    href: `/payments/${batch.id}`,
    recheckOf: batch.recheckedFrom === null ? null : `/payments/${batch.recheckedFrom}`,
    interrupted: batch.finishedAt === null,
    layout,
    totalLines: totalLines(batch.totals),
  };
}
