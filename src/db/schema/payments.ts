/**
 * The payment guard's evidence (accounts lists search records showed) and recorded checks.
 */
import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  check,
  index,
  integer,
  jsonb,
  numeric,
  text,
  uuid,
} from "drizzle-orm/pg-core";
import { bytea, createdNow, day, instant, regwatch } from "./columns.ts";

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

/**
 * One checked payment batch (`payments check --record`, a console upload): who, when, which file,
 * how it was read, totals per currency. Written first, finished (counts, totals) at the end.
 */
export const paymentBatches = regwatch.table(
  "payment_batches",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    checkedAt: createdNow("checked_at"),
    /** Null while the check runs, or when it was interrupted. */
    finishedAt: instant("finished_at"),
    checkedBy: text("checked_by"),
    source: text("source").notNull(),
    fileName: text("file_name"),
    encoding: text("encoding"),
    delimiter: text("delimiter"),
    checkedOn: day("checked_on"),
    holdDays: integer("hold_days"),
    rowCount: integer("row_count").notNull().default(0),
    heldCount: integer("held_count").notNull().default(0),
    /** [{ currency, amount, rows, held, held_rows }], amounts as decimal strings. */
    totals: jsonb("totals").notNull().default(sql`'[]'::jsonb`),
    /** The batch whose stored rows this one checked again (migration 0041). */
    recheckedFrom: uuid("rechecked_from").references((): AnyPgColumn => paymentBatches.id, {
      onDelete: "set null",
    }),
    /** Field -> the header of the column read for it (migration 0050); null on batches recorded before. */
    readColumns: jsonb("read_columns"),
    /** The file's other columns, read for nothing. */
    ignoredColumns: text("ignored_columns").array(),
    /** Who chose the remembered columns the file was read with, and when; null when none was used. */
    columnsChosenBy: text("columns_chosen_by"),
    columnsChosenAt: instant("columns_chosen_at"),
    /** The upload kept (held_uploads) so its uploader can choose the columns not found and check again. */
    columnsOffer: uuid("columns_offer"),
    /** The checked file's size in bytes and SHA-256 (hex), for the evidence report (migration 0051). */
    fileSize: bigint("file_size", { mode: "number" }),
    fileSha256: text("file_sha256"),
  },
  (t) => [
    index("payment_batches_checked_at").on(t.checkedAt),
    check("payment_batches_source", sql`${t.source} in ('cli', 'web')`),
  ],
);

/** Payment rows checked by `payments check --record`, one per payment, with the verdict. */
export const paymentChecks = regwatch.table(
  "payment_checks",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    batchId: uuid("batch_id")
      .notNull()
      .references(() => paymentBatches.id, { onDelete: "cascade" }),
    checkedAt: createdNow("checked_at"),
    line: integer("line").notNull(),
    /** As written; null when the file gives no tax number. */
    taxId: text("tax_id"),
    bankAccount: text("bank_account").notNull(),
    verdict: text("verdict").notNull(),
    detail: text("detail"),
    /** What to do before the payment may go; null for ok. */
    nextStep: text("next_step"),
    amount: numeric("amount"),
    currency: text("currency"),
    reference: text("reference"),
    /** The payee judged against: the file's tax base, else the holder of the account. */
    taxBase: text("tax_base"),
    payeeFoundBy: text("payee_found_by"),
    name: text("name"),
    registryName: text("registry_name"),
    amountRaw: text("amount_raw"),
    verifiedBy: text("verified_by"),
    verifiedOn: day("verified_on"),
    /**
     * The detail's sentences as [{ code, values }] and the next step as { code, values }
     * (migration 0045): the console says them in its reader's language; detail and next_step
     * keep the English. Null on rows recorded before.
     */
    detailSaid: jsonb("detail_said"),
    nextStepSaid: jsonb("next_step_said"),
  },
  (t) => [
    check("payment_checks_payee_found_by", sql`${t.payeeFoundBy} in ('tax_id', 'account')`),
    index("payment_checks_tax_base").on(t.taxBase, t.checkedAt).where(sql`${t.taxBase} is not null`),
    index("payment_checks_batch").on(t.batchId),
    index("payment_checks_checked_at").on(t.checkedAt),
    check(
      "payment_checks_verdict",
      sql`${t.verdict} in ('invalid_tax_id', 'invalid_account', 'unknown_account_holder', 'business_ceased', 'status_unverified', 'business_suspended', 'account_removed', 'account_not_registered', 'name_mismatch', 'name_unverified', 'invalid_amount', 'account_recently_changed', 'account_change_unverified', 'account_unconfirmed', 'unknown_business', 'not_watched', 'ok')`,
    ),
  ],
);

/** Accounts confirmed out of band by `payments verify` (migration 0022); rows are only added. */
export const payeeVerifications = regwatch.table(
  "payee_verifications",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    taxId: text("tax_id").notNull(),
    bankAccount: text("bank_account").notNull(),
    verifiedBy: text("verified_by").notNull(),
    verifiedAt: createdNow("verified_at"),
    note: text("note"),
  },
  (t) => [
    index("payee_verifications_payee").on(t.taxId, t.bankAccount, t.verifiedAt),
    check("payee_verifications_tax_id", sql`${t.taxId} ~ '^[0-9]{8}$'`),
    check("payee_verifications_bank_account", sql`${t.bankAccount} ~ '^[0-9]{8}-[0-9]{8}-[0-9]{8}$'`),
    check("payee_verifications_verified_by", sql`btrim(${t.verifiedBy}) <> ''`),
  ],
);

/** Column choices made in the console for headers the reader did not recognise (migration 0041). */
export const paymentColumnChoices = regwatch.table(
  "payment_column_choices",
  {
    signature: text("signature").primaryKey(),
    headers: text("headers").array().notNull(),
    columns: jsonb("columns").notNull(),
    chosenBy: text("chosen_by").notNull(),
    chosenAt: createdNow("chosen_at"),
  },
  (t) => [
    check(
      "payment_column_choices_columns",
      sql`jsonb_typeof(${t.columns}) = 'object' AND ${t.columns} ? 'bank_account'`,
    ),
  ],
);

/** Uploads waiting for their uploader's column choice (migration 0041); private. */
export const heldUploads = regwatch.table("held_uploads", {
  id: uuid("id").primaryKey().defaultRandom(),
  fileName: text("file_name").notNull(),
  body: bytea("body").notNull(),
  options: jsonb("options").notNull(),
  heldBy: text("held_by").notNull(),
  heldAt: createdNow("held_at"),
});
