-- A message that cannot be sent is never silent (issue 46, point 3).
--
-- alert_delivery_health: one row per schema saying how the alert delivery passes fare. A pass
-- that hits an error of regwatch's own (a send that throws, a body that cannot be built, the
-- database failing mid-pass) adds to failures_in_row and failures_total and keeps the error; a
-- later pass that attempts a message without one ends the streak (so does any pass without one
-- when the failure charged no message: what failed before claiming has run since). Every
-- process that delivers (the daemon, `alerts deliver`, a command-line sync) writes it; `status`,
-- `doctor`, the console and /metrics read it. Absent until a pass first fails.
CREATE TABLE "regwatch"."alert_delivery_health" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL CHECK ("id" = 1),
	"failures_in_row" integer DEFAULT 0 NOT NULL,
	"failures_total" bigint DEFAULT 0 NOT NULL,
	"failing_since" timestamp with time zone,
	"last_failed_at" timestamp with time zone,
	"last_error" text,
	"last_failure_messages" integer DEFAULT 0 NOT NULL,
	"recovered_at" timestamp with time zone
);
--> statement-breakpoint
COMMENT ON TABLE regwatch.alert_delivery_health IS 'How alert delivery passes fare: at most one row, written by every pass that fails and by the first pass that attempts a message cleanly after a failure.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_delivery_health.id IS 'Always 1: one row per schema.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_delivery_health.failures_in_row IS 'Delivery passes failed in a row: ended by a pass that attempts a message without an error of regwatch''s own (or by any pass without one when the last failure charged no message); 0 when delivery works.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_delivery_health.failures_total IS 'Delivery passes that ever failed (the counter regwatch_alert_delivery_pass_failures_total).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_delivery_health.failing_since IS 'When the current streak of failed passes began (database clock); null when failures_in_row is 0.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_delivery_health.last_failed_at IS 'When a delivery pass last failed (database clock).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_delivery_health.last_error IS 'The last failed pass''s first error, secrets scrubbed.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_delivery_health.last_failure_messages IS 'Messages the last failed pass charged a failed attempt (0: none, e.g. it failed before claiming any).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_delivery_health.recovered_at IS 'When the last streak of failed passes ended (database clock).';
