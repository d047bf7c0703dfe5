CREATE INDEX "changes_path" ON "regwatch"."changes" USING btree ("path","change_date");
--> statement-breakpoint
COMMENT ON INDEX regwatch.changes_path IS 'Finds the changes of one change file: the newest-first order and the REGWATCH_FETCH_FILES policy of the file phase look them up per file.';
