-- The checked file's size and SHA-256, per batch (issue 51, the evidence report).
--
-- Computed when a batch is recorded (`payments check --record`, the console's upload); a re-check
-- ("Check again") copies its batch's. Null on batches recorded before.
ALTER TABLE "regwatch"."payment_batches" ADD COLUMN "file_size" bigint;--> statement-breakpoint
ALTER TABLE "regwatch"."payment_batches" ADD COLUMN "file_sha256" text;--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_batches.file_size IS 'The checked file''s size in bytes; null on batches recorded before migration 0051.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_batches.file_sha256 IS 'The checked file''s SHA-256, lower-case hex; the evidence report names it so a reader can verify the file.';
