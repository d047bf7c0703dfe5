-- Which column was read for each field, per batch (issue 49, point 2).
--
-- payment_batches.read_columns / ignored_columns: the header read for each field and the columns
-- read for nothing, so every batch page says how its file was read. columns_chosen_by/_at: the
-- remembered column choice the file was read with, who made it and when. columns_offer: the upload
-- kept so its uploader can choose the amount, name or tax number columns the reader did not find.
ALTER TABLE "regwatch"."payment_batches" ADD COLUMN "read_columns" jsonb;--> statement-breakpoint
ALTER TABLE "regwatch"."payment_batches" ADD COLUMN "ignored_columns" text[];--> statement-breakpoint
ALTER TABLE "regwatch"."payment_batches" ADD COLUMN "columns_chosen_by" text;--> statement-breakpoint
ALTER TABLE "regwatch"."payment_batches" ADD COLUMN "columns_chosen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "regwatch"."payment_batches" ADD COLUMN "columns_offer" uuid;--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_batches.read_columns IS 'Field -> the header of the column read for it: {"bank_account": "...", "amount": "..."}; null on batches recorded before.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_batches.ignored_columns IS 'The file''s other columns, read for nothing.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_batches.columns_chosen_by IS 'Who chose the remembered columns the file was read with (payment_column_choices); null when none was used.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_batches.columns_chosen_at IS 'When that column choice was made.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_batches.columns_offer IS 'The held upload its uploader may choose the columns not found for and check again (held_uploads.id; gone after a day).';
