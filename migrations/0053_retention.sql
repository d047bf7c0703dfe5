-- Personal data kept only as long as needed (issue 51, point 3).
--
-- retention_runs: what each retention pass did per kind (when, how many rows, under which policy),
-- never what it removed. change_files.body_removed_on: the day the policy dropped a parsed body.
CREATE TABLE "regwatch"."retention_runs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"ran_at" timestamp with time zone DEFAULT now() NOT NULL,
	"kind" text NOT NULL,
	"action" text NOT NULL,
	"count" integer NOT NULL,
	"batches" integer NOT NULL,
	"policy" text NOT NULL,
	"trigger" text NOT NULL,
	CONSTRAINT "retention_runs_action" CHECK ("regwatch"."retention_runs"."action" in ('removed', 'pseudonymised')),
	CONSTRAINT "retention_runs_trigger" CHECK ("regwatch"."retention_runs"."trigger" in ('cli', 'schedule'))
);
--> statement-breakpoint
ALTER TABLE "regwatch"."change_files" ADD COLUMN "body_removed_on" date;--> statement-breakpoint
CREATE INDEX "retention_runs_ran_at" ON "regwatch"."retention_runs" USING btree ("ran_at");;--> statement-breakpoint
COMMENT ON TABLE regwatch.retention_runs IS 'What the retention policy did, per pass and kind of personal data: when, how many rows, under which policy; never what was removed.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.retention_runs.id IS 'Order of the records.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.retention_runs.ran_at IS 'When the kind''s pass finished.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.retention_runs.kind IS 'representatives, sole_proprietors, change_bodies, payment_rows, payment_files, alert_replies or sign_ins.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.retention_runs.action IS 'removed (rows deleted, bodies dropped) or pseudonymised (values replaced by the removal marker).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.retention_runs.count IS 'Rows removed or pseudonymised.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.retention_runs.batches IS 'Transactions the work took, each committed on its own.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.retention_runs.policy IS 'The rule applied, in words: the kind, its days and the cut-off day.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.retention_runs.trigger IS 'cli (regwatch retention apply) or schedule (the daemon''s daily pass).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.change_files.body_removed_on IS 'The day the retention policy removed the parsed body; its values stay in change_values, reparse skips the file.';