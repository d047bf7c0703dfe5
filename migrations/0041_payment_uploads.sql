-- Payments in the browser (issue 34, point 6).
--
-- payment_column_choices: which column of a payment file holds which field, as a clerk chose it
-- in the console for a header the reader did not recognise; keyed by the header's signature
-- (its cells, compared as the reader compares headers), so the next file with that header is read
-- the same way without asking.
--
-- held_uploads: an uploaded file kept while its uploader says which column is which (deleted when
-- the check runs, and after a day at the latest). Private: it holds a payment file.
--
-- payment_batches.rechecked_from: the batch a "Check again" re-checked (its stored rows judged
-- anew into this batch); the earlier batch and its verdicts stay as they were.
CREATE TABLE "regwatch"."payment_column_choices" (
	"signature" text PRIMARY KEY NOT NULL,
	"headers" text[] NOT NULL,
	"columns" jsonb NOT NULL,
	"chosen_by" text NOT NULL,
	"chosen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_column_choices_columns" CHECK (jsonb_typeof("columns") = 'object' AND "columns" ? 'bank_account')
);
--> statement-breakpoint
CREATE TABLE "regwatch"."held_uploads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"file_name" text NOT NULL,
	"body" bytea NOT NULL,
	"options" jsonb NOT NULL,
	"held_by" text NOT NULL,
	"held_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "regwatch"."payment_batches" ADD COLUMN "rechecked_from" uuid REFERENCES "regwatch"."payment_batches"("id") ON DELETE SET NULL;
--> statement-breakpoint
COMMENT ON TABLE regwatch.payment_column_choices IS 'Which column holds which payment field, chosen in the console for a header the reader did not recognise; used again for every file with that header.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_column_choices.signature IS 'The header''s cells as the reader compares them (case, accents and punctuation dropped), joined: one row per header layout.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_column_choices.headers IS 'The header''s cells as the file that prompted the choice wrote them.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_column_choices.columns IS 'Field -> header as written: {"bank_account": "...", "tax_id": "...", "amount": "...", "name": "..."}.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_column_choices.chosen_by IS 'The console user who chose the columns.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_column_choices.chosen_at IS 'When the columns were (last) chosen.';--> statement-breakpoint
COMMENT ON TABLE regwatch.held_uploads IS 'Uploaded payment files waiting for their uploader to say which column is which; deleted when checked, and after a day.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.held_uploads.id IS 'Random id the column form carries.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.held_uploads.file_name IS 'The name the file was uploaded under.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.held_uploads.body IS 'The file as uploaded.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.held_uploads.options IS 'The upload form''s options (hold days, encoding, currency, online).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.held_uploads.held_by IS 'The console user who uploaded it; only they may check it.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.held_uploads.held_at IS 'When it was uploaded.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_batches.rechecked_from IS 'The batch whose stored rows this one checked again (the console''s Check again); null for a checked file.';
