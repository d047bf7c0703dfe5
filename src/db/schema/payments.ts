/**
 * The payment guard's evidence (accounts lists search records showed) and recorded checks.
 */
import { sql } from "drizzle-orm";
import { bigserial, check, index, integer, numeric, text, uuid } from "drizzle-orm/pg-core";
import { createdNow, instant, regwatch } from "./columns.ts";

/**
 * Every list of bank accounts a business's search record showed, from the first read that showed
 * it; a trigger on businesses keeps it (migration 0016), v_bank_accounts reads it.
 */
export const searchBankAccounts = regwatch.table(
  "search_bank_accounts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    taxId: text("tax_id").notNull(),
    seenAt: instant("seen_at").notNull(),
    bankAccounts: text("bank_accounts").array().notNull(),
  },
  (t) => [index("search_bank_accounts_tax_id").on(t.taxId, t.id)],
);

/** Payment rows checked by `payments check --record`, one per payment, with the verdict. */
export const paymentChecks = regwatch.table(
  "payment_checks",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    batchId: uuid("batch_id").notNull(),
    checkedAt: createdNow("checked_at"),
    line: integer("line").notNull(),
    taxId: text("tax_id").notNull(),
    bankAccount: text("bank_account").notNull(),
    verdict: text("verdict").notNull(),
    detail: text("detail"),
    /** What to do before the payment may go; null for ok. */
    nextStep: text("next_step"),
    amount: numeric("amount"),
    currency: text("currency"),
    reference: text("reference"),
  },
  (t) => [
    index("payment_checks_batch").on(t.batchId),
    index("payment_checks_checked_at").on(t.checkedAt),
    check(
      "payment_checks_verdict",
      sql`${t.verdict} in ('invalid_tax_id', 'invalid_account', 'business_ceased', 'business_suspended', 'account_not_registered', 'account_recently_changed', 'account_change_unverified', 'unknown_business', 'not_watched', 'ok')`,
    ),
  ],
);
