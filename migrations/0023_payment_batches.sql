-- A checked payment batch becomes a record of its own (issue 27), and payment_checks keeps what
-- the web console shows of a row without the file:
-- 1. payment_batches: who checked which file, when, from where (the command or the console), the
--    layout it was read with, and the totals per currency. The command records a batch row by
--    row chunk as it goes: the batch row is written first and finished (counts, totals,
--    finished_at) at the end, so an interrupted check is visible as one that never finished.
-- 2. payment_checks: the name and amount as written, the registry's name, the payee's tax base
--    and how it was found (rows may have no tax number now), the verification that released a
--    hold. tax_id may be null (a bank export without tax numbers).
-- 3. Text a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, carriage return at
--    the start, unless the text is just a number) is stored with a leading apostrophe from now
--    on; the rows kept before are given the same treatment here, which loses nothing (the
--    apostrophe is the only change).
CREATE TABLE "regwatch"."payment_batches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"checked_by" text,
	"source" text NOT NULL,
	"file_name" text,
	"encoding" text,
	"delimiter" text,
	"checked_on" date,
	"hold_days" integer,
	"row_count" integer DEFAULT 0 NOT NULL,
	"held_count" integer DEFAULT 0 NOT NULL,
	"totals" jsonb DEFAULT '[]'::jsonb NOT NULL,
	CONSTRAINT "payment_batches_source" CHECK ("source" in ('cli', 'web'))
);
--> statement-breakpoint
CREATE INDEX "payment_batches_checked_at" ON "regwatch"."payment_batches" USING btree ("checked_at");
--> statement-breakpoint
-- Every batch recorded before this migration: its rows' first check time, their counts and totals.
INSERT INTO "regwatch"."payment_batches" ("id", "checked_at", "finished_at", "source", "row_count", "held_count", "totals")
SELECT b.batch_id, b.checked_at, b.checked_at, 'cli', b.row_count, b.held_count,
       coalesce((
         SELECT jsonb_agg(jsonb_build_object(
                  'currency', t.currency, 'amount', t.amount::text, 'rows', t.rows,
                  'held', t.held::text, 'held_rows', t.held_rows) ORDER BY t.currency)
         FROM (
           SELECT coalesce(c.currency, '') AS currency, sum(c.amount) AS amount, count(*)::int AS rows,
                  coalesce(sum(c.amount) FILTER (WHERE c.verdict NOT IN ('ok', 'not_watched')), 0) AS held,
                  count(*) FILTER (WHERE c.verdict NOT IN ('ok', 'not_watched'))::int AS held_rows
           FROM "regwatch"."payment_checks" c
           WHERE c.batch_id = b.batch_id AND c.amount IS NOT NULL
           GROUP BY coalesce(c.currency, '')
         ) t), '[]'::jsonb)
FROM (
  SELECT batch_id, min(checked_at) AS checked_at, count(*)::int AS row_count,
         count(*) FILTER (WHERE verdict NOT IN ('ok', 'not_watched'))::int AS held_count
  FROM "regwatch"."payment_checks"
  GROUP BY batch_id
) b;
--> statement-breakpoint
ALTER TABLE "regwatch"."payment_checks" ADD CONSTRAINT "payment_checks_batch_id_fkey"
  FOREIGN KEY ("batch_id") REFERENCES "regwatch"."payment_batches"("id") ON DELETE CASCADE;
--> statement-breakpoint
ALTER TABLE "regwatch"."payment_checks" ALTER COLUMN "tax_id" DROP NOT NULL;
--> statement-breakpoint
ALTER TABLE "regwatch"."payment_checks" ADD COLUMN "tax_base" text;
--> statement-breakpoint
ALTER TABLE "regwatch"."payment_checks" ADD COLUMN "payee_found_by" text;
--> statement-breakpoint
ALTER TABLE "regwatch"."payment_checks" ADD CONSTRAINT "payment_checks_payee_found_by" CHECK ("payee_found_by" in ('tax_id', 'account'));
--> statement-breakpoint
ALTER TABLE "regwatch"."payment_checks" ADD COLUMN "name" text;
--> statement-breakpoint
ALTER TABLE "regwatch"."payment_checks" ADD COLUMN "registry_name" text;
--> statement-breakpoint
ALTER TABLE "regwatch"."payment_checks" ADD COLUMN "amount_raw" text;
--> statement-breakpoint
ALTER TABLE "regwatch"."payment_checks" ADD COLUMN "verified_by" text;
--> statement-breakpoint
ALTER TABLE "regwatch"."payment_checks" ADD COLUMN "verified_on" date;
--> statement-breakpoint
-- The rows kept before name their payee by the tax id they were checked with (a tax base number
-- or a full tax number).
UPDATE "regwatch"."payment_checks" SET "tax_base" = left("tax_id", 8), "payee_found_by" = 'tax_id'
WHERE "tax_id" ~ '^\d{8}(-\d-\d{2})?$';
--> statement-breakpoint
-- The web console's business page lists the payments checked for a business.
CREATE INDEX "payment_checks_tax_base" ON "regwatch"."payment_checks" USING btree ("tax_base", "checked_at") WHERE "tax_base" IS NOT NULL;
--> statement-breakpoint
-- The rows kept before: formula-like text made safe as the command now stores it.
UPDATE "regwatch"."payment_checks" SET
  "tax_id" = CASE WHEN "tax_id" ~ '^[=+@\t\r-]' AND "tax_id" !~ '^[+-]?(\d+([.,]\d+)?|[.,]\d+)$' THEN '''' || "tax_id" ELSE "tax_id" END,
  "bank_account" = CASE WHEN "bank_account" ~ '^[=+@\t\r-]' AND "bank_account" !~ '^[+-]?(\d+([.,]\d+)?|[.,]\d+)$' THEN '''' || "bank_account" ELSE "bank_account" END,
  "reference" = CASE WHEN "reference" ~ '^[=+@\t\r-]' AND "reference" !~ '^[+-]?(\d+([.,]\d+)?|[.,]\d+)$' THEN '''' || "reference" ELSE "reference" END,
  "detail" = CASE WHEN "detail" ~ '^[=+@\t\r-]' AND "detail" !~ '^[+-]?(\d+([.,]\d+)?|[.,]\d+)$' THEN '''' || "detail" ELSE "detail" END
WHERE "tax_id" ~ '^[=+@\t\r-]' OR "bank_account" ~ '^[=+@\t\r-]' OR "reference" ~ '^[=+@\t\r-]' OR "detail" ~ '^[=+@\t\r-]';
--> statement-breakpoint
COMMENT ON TABLE regwatch.payment_batches IS 'One row per payment batch checked with payments check --record or uploaded in the web console: who, when, which file, how it was read, and its totals. Its rows are in payment_checks (batch_id).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_batches.id IS 'Batch identifier; payment_checks.batch_id refers to it.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_batches.checked_at IS 'When the check started.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_batches.finished_at IS 'When the last row was recorded and the totals written; null for a check that was interrupted (its rows so far are kept).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_batches.checked_by IS 'Who ran the check: payments check --by, else the operating-system user; the signed-in user in the console. Null for batches recorded before migration 0023.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_batches.source IS 'cli (payments check --record) or web (an upload in the console).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_batches.file_name IS 'Name of the checked file (without its folder), neutralised for spreadsheets; null before migration 0023.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_batches.encoding IS 'Character encoding the file was read in (utf-8, windows-1250, iso-8859-2, utf-16le, ...).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_batches.delimiter IS 'Field separator of the file: ";", "," or a tab.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_batches.checked_on IS 'The day (in the registry''s time zone) the verdicts were given for: the hold period counts back from it.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_batches.hold_days IS 'Account changes within this many days held a payment.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_batches.row_count IS 'Payments checked (rows of the file).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_batches.held_count IS 'Payments whose verdict holds them (every verdict but ok and not_watched).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_batches.totals IS 'Totals per currency, exact: an array of {"currency", "amount", "rows", "held", "held_rows"}, amounts as decimal strings in the currency''s decimals; rows without a readable amount are not counted.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_checks.batch_id IS 'The batch (payment_batches.id) the row was checked in: the rows of one file share it.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_checks.tax_id IS 'Tax id as the file gave it (tax base number or tax number), neutralised for spreadsheets; null when the file gives none.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_checks.bank_account IS 'The account in canonical form, or as the file gave it (neutralised for spreadsheets) when unreadable.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_checks.reference IS 'Reference from the file, when it had one; text a spreadsheet would run as a formula starts with an apostrophe.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_checks.detail IS 'Why the verdict was given (change date, holder of the account, names compared, verification); neutralised for spreadsheets.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_checks.tax_base IS 'Tax base number (8 digits) of the payee the row was judged against: the file''s when readable, else the business found holding the account; null when none. Rows recorded before migration 0023 get the first eight digits of a well-formed tax id.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_checks.payee_found_by IS 'How the payee was found: tax_id (the file named it) or account (the business holding the account); null when no payee was found.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_checks.name IS 'The payee''s name as the file wrote it, neutralised for spreadsheets; null when the file gives none.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_checks.registry_name IS 'The registry''s name of the payee, when known.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_checks.amount_raw IS 'The amount cell as the file wrote it (e.g. "1.250.000,50" or "1 250 000 Ft"), neutralised for spreadsheets; amount holds its value.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_checks.verified_by IS 'Who confirmed the account out of band (payee_verifications) when a verification released the row''s hold; null otherwise.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_checks.verified_on IS 'Day of that verification; null when none released a hold.';
