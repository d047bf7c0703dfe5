-- Jobs a person queued with `regwatch enqueue` record their runs with trigger `manual`.
ALTER TABLE "regwatch"."runs" DROP CONSTRAINT "runs_trigger";--> statement-breakpoint
ALTER TABLE "regwatch"."runs" ADD CONSTRAINT "runs_trigger" CHECK ("regwatch"."runs"."trigger" in ('cli', 'schedule', 'catchup', 'manual'));--> statement-breakpoint
COMMENT ON COLUMN "regwatch"."runs"."trigger" IS 'cli (a command), schedule (the daemon or a job it queued), catchup (the daemon at start), manual (a job queued with regwatch enqueue)';
