-- A person confirms a payee's account out of band (issue 27).
--
-- payee_verifications: who confirmed that an account belongs to a business, when, and how (the
-- note). The payment check lets a payment go that a change of that account held (the account
-- added within the hold period, or a bank_accounts change whose values are unknown) when a
-- verification of the payee and the account was made on or after the day of the newest such
-- change; a later change holds the payment again. Rows are only ever added.
--
-- payment_checks: the verdict constraint takes the new verdicts (unknown_account_holder,
-- name_mismatch, invalid_amount).
CREATE TABLE "regwatch"."payee_verifications" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tax_id" text NOT NULL,
	"bank_account" text NOT NULL,
	"verified_by" text NOT NULL,
	"verified_at" timestamp with time zone DEFAULT now() NOT NULL,
	"note" text,
	CONSTRAINT "payee_verifications_tax_id" CHECK ("tax_id" ~ '^[0-9]{8}$'),
	CONSTRAINT "payee_verifications_bank_account" CHECK ("bank_account" ~ '^[0-9]{8}-[0-9]{8}-[0-9]{8}$'),
	CONSTRAINT "payee_verifications_verified_by" CHECK (btrim("verified_by") <> '')
);
--> statement-breakpoint
CREATE INDEX "payee_verifications_payee" ON "regwatch"."payee_verifications" ("tax_id", "bank_account", "verified_at");
--> statement-breakpoint
ALTER TABLE "regwatch"."payment_checks" DROP CONSTRAINT "payment_checks_verdict";
--> statement-breakpoint
ALTER TABLE "regwatch"."payment_checks" ADD CONSTRAINT "payment_checks_verdict" CHECK ("verdict" in ('invalid_tax_id', 'invalid_account', 'unknown_account_holder', 'business_ceased', 'business_suspended', 'account_not_registered', 'name_mismatch', 'invalid_amount', 'account_recently_changed', 'account_change_unverified', 'unknown_business', 'not_watched', 'ok'));
--> statement-breakpoint
COMMENT ON TABLE regwatch.payee_verifications IS 'Confirmations, made out of band (a call to the supplier on a number already held), that a bank account belongs to a business; written by `regwatch payments verify`. A verification releases the payment holds that account changes dated on or before its day caused.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payee_verifications.id IS 'Sequence number.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payee_verifications.tax_id IS 'Tax base number (8 digits) of the business the account was confirmed for.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payee_verifications.bank_account IS 'The confirmed account, 24 digits in three hyphenated groups (a 16-digit account padded with eight zeros).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payee_verifications.verified_by IS 'Who confirmed it (as given with --by, or the signed-in console user).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payee_verifications.verified_at IS 'When it was recorded; its day in the registry''s time zone is the day compared with change dates.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payee_verifications.note IS 'How it was confirmed (whom was called, on which number), as given.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_checks.verdict IS 'invalid_tax_id, invalid_account, unknown_account_holder, business_ceased, business_suspended, account_not_registered, name_mismatch, invalid_amount, account_recently_changed, account_change_unverified, unknown_business, not_watched or ok.';
