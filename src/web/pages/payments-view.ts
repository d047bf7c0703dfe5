/**
 * Recorded payment checks as the console shows them, pure: each verdict in words with a colour
 * (held red or amber, passing green), totals per currency, and the row lines of a batch. The
 * verdicts themselves are src/payments/verdicts.ts's.
 */
import type { BatchTotal, PaymentBatchRow, PaymentCheckRow } from "../../db/console-payments.ts";
import { PASSING, type Verdict } from "../../payments/verdicts.ts";

export type Severity = "red" | "amber" | "green";

const WORDS: Record<Verdict, { words: string; severity: Severity }> = {
  invalid_tax_id: { words: "tax id cannot exist", severity: "red" },
  invalid_account: { words: "account number cannot exist", severity: "red" },
  unknown_account_holder: { words: "no known business holds the account", severity: "red" },
  business_ceased: { words: "business has ceased", severity: "red" },
  status_unverified: { words: "status changed, not verified", severity: "red" },
  business_suspended: { words: "business is suspended", severity: "red" },
  account_removed: { words: "account removed by the business", severity: "red" },
  account_not_registered: { words: "account not registered to the business", severity: "red" },
  name_mismatch: { words: "name does not match the registry's", severity: "red" },
  name_unverified: { words: "name changed, not verified", severity: "amber" },
  invalid_amount: { words: "amount cannot be read", severity: "red" },
  account_recently_changed: { words: "account added recently", severity: "amber" },
  account_change_unverified: { words: "account change not verified", severity: "amber" },
  account_unconfirmed: { words: "account never shown by any source", severity: "amber" },
  unknown_business: { words: "business not known to regwatch", severity: "amber" },
  not_watched: { words: "passes (business not watched)", severity: "green" },
  ok: { words: "ok", severity: "green" },
};

export function verdictWords(verdict: string): { words: string; severity: Severity; held: boolean } {
  const known = WORDS[verdict as Verdict];
  return {
    words: known?.words ?? verdict,
    severity: known?.severity ?? "red",
    held: !PASSING.has(verdict as Verdict),
  };
}

/** One recorded row as a line of the batch page or the business page. */
export function paymentCheckLines<T extends PaymentCheckRow>(rows: readonly T[]) {
  return rows.map((r) => ({
    ...r,
    ...verdictWords(r.verdict),
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
    currency: t.currency || "(no currency)",
    amount: amountText(t.amount, null, null),
    rows: t.rows,
    held: amountText(t.held, null, null),
    heldRows: t.held_rows,
  }));
}

export function batchSummary(batch: PaymentBatchRow) {
  return {
    ...batch,
    href: `/payments/${batch.id}`,
    status: batch.finishedAt === null ? "interrupted: not every row was recorded" : null,
    layout: [
      batch.encoding ? `encoding ${batch.encoding}` : null,
      batch.delimiter ? `separated by ${batch.delimiter === "\t" ? "tabs" : `"${batch.delimiter}"`}` : null,
      batch.holdDays !== null ? `hold ${batch.holdDays} days` : null,
      batch.checkedOn ? `verdicts for ${batch.checkedOn}` : null,
    ]
      .filter(Boolean)
      .join(", "),
    totalLines: totalLines(batch.totals),
  };
}
