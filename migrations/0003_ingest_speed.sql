ALTER TABLE "regwatch"."change_sources" DROP CONSTRAINT "change_sources_change_id_changes_id_fk";
--> statement-breakpoint
DROP INDEX "regwatch"."changes_path";