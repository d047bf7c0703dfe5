-- A change file now knows its changes: change_ids lists them (changes.id) and newest_change is
-- the day of the newest. The file phase (newest first, the REGWATCH_FETCH_FILES policy) and the
-- parser found a file's changes through changes_path, an index on a long text every new change
-- paid an entry for (about 5% of the write path's time); they now go through the file's row and
-- the changes' primary key, and the index goes.
ALTER TABLE "regwatch"."change_files" ADD COLUMN "change_ids" bigint[] DEFAULT '{}'::bigint[] NOT NULL;
--> statement-breakpoint
ALTER TABLE "regwatch"."change_files" ADD COLUMN "newest_change" date;
--> statement-breakpoint
UPDATE "regwatch"."change_files" f
SET "change_ids" = c.ids, "newest_change" = c.newest
FROM (
  SELECT path, array_agg(id ORDER BY id) AS ids, max(change_date) AS newest
  FROM "regwatch"."changes" GROUP BY path
) c
WHERE c.path = f.path;
--> statement-breakpoint
DROP INDEX IF EXISTS "regwatch"."changes_path";
--> statement-breakpoint
COMMENT ON COLUMN regwatch.change_files.change_ids IS 'The changes that point to the file (changes.id), in the order they were stored.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.change_files.newest_change IS 'Day of the newest change that points to the file; files are fetched newest first.';
