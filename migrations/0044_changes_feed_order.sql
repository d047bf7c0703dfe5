-- The console's /changes pages by keyset (issue 38): a page starts after the last row of the one
-- before, read from changes in the feed's order (newest day first, then tax id; the headings of a
-- day's business are ordered as they are read), so the 2,000th page costs what the first does.
-- changes_feed_order serves that order and every day range of changes that changes_change_date
-- served, which it replaces (one index more on the write path would cost every sync).
CREATE INDEX "changes_feed_order" ON "regwatch"."changes" ("change_date" DESC, "tax_id");
--> statement-breakpoint
DROP INDEX "regwatch"."changes_change_date";
