-- Values are attributed, never assumed: a change file's entries go only to the change of the
-- business (and chapter) they name, and same-day values of one heading are ordered by their
-- chain (the old value of one is the new value of the one before), not by storage order.
ALTER TABLE "regwatch"."change_values" ADD COLUMN "day_order" integer;
--> statement-breakpoint
ALTER TABLE "regwatch"."change_values" ADD COLUMN "order_ambiguous" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "regwatch"."change_files" DROP CONSTRAINT "change_files_parse_status";
--> statement-breakpoint
ALTER TABLE "regwatch"."change_files" ADD CONSTRAINT "change_files_parse_status"
  CHECK ("parse_status" IS NULL OR "parse_status" IN ('parsed', 'unrecognised', 'failed', 'unattributed'));
--> statement-breakpoint
COMMENT ON COLUMN regwatch.change_values.day_order IS 'Position of this value among the same business''s values of the heading on the same day (1 = first), decided by chaining old and new values; null when the order is ambiguous.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.change_values.order_ambiguous IS 'True when the business has several values of this heading on this day and no chain of old and new values decides their order: the value after that day is not known.';
