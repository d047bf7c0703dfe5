-- Change files failed for good (issue 37).
--
-- A body the database refuses whatever the moment (JSON nested past 1,000 levels, measured before
-- the database; or refused with a SQLSTATE no repeat can change: stack depth, a number out of
-- range, a character it cannot store) is kept in body_bytes with its reason in last_error, its
-- status stays 'failed' and failed_for_good is set: no sync fetches it again or counts an attempt,
-- `regwatch status` lists it, and only `regwatch reparse` (from the kept bytes, no request) or
-- `regwatch backfill --refetch` of its days tries it again.
ALTER TABLE "regwatch"."change_files" ADD COLUMN "failed_for_good" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
COMMENT ON COLUMN regwatch.change_files.failed_for_good IS 'With status failed: the database refuses the body whatever the try (too deep, out of range, a character it cannot store); the body is kept in body_bytes, the reason in last_error; no sync tries it again, only reparse or backfill --refetch.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.change_files.status IS 'pending (not fetched yet), fetched, failed (retried by later syncs unless failed_for_good), refused (address outside REGWATCH_FILE_ORIGINS, never fetched), skipped (left out by REGWATCH_FETCH_FILES; fetched once the policy includes it).';
