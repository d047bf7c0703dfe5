-- Rules and alerts keep their history (issue 26).
--
-- A rule is paused (enabled = false) or removed (removed_at set, enabled false) instead of
-- deleted, so its alerts, their messages and their events stay readable. A removed rule's name
-- may be taken again by a new rule: only rules not removed need unique names.
--
-- alert_events: every lifecycle action (ack, resolve, snooze, reopen, rule added, edited, paused,
-- resumed, removed) as its own row, so a second ack no longer overwrites the first one's note.
-- alerts.status_by/status_note/status_at stay as the latest action, for readers of v_alerts.
--
-- alert_scans.queued: how many messages a run's scan queued, for the sync and backfill summaries.
ALTER TABLE "regwatch"."alert_rules" ADD COLUMN "removed_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "regwatch"."alert_rules" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;
--> statement-breakpoint
ALTER TABLE "regwatch"."alert_rules" DROP CONSTRAINT "alert_rules_name";
--> statement-breakpoint
CREATE UNIQUE INDEX "alert_rules_name" ON "regwatch"."alert_rules" ("name") WHERE "removed_at" IS NULL;
--> statement-breakpoint
ALTER TABLE "regwatch"."alert_rules" ADD CONSTRAINT "alert_rules_removed_disabled" CHECK ("removed_at" IS NULL OR NOT "enabled");
--> statement-breakpoint
CREATE TABLE "regwatch"."alert_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"rule_id" bigint NOT NULL REFERENCES "regwatch"."alert_rules"("id") ON DELETE CASCADE,
	"alert_id" bigint REFERENCES "regwatch"."alerts"("id") ON DELETE CASCADE,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"by" text NOT NULL,
	"action" text NOT NULL,
	"note" text,
	"snoozed_until" date,
	"details" jsonb,
	CONSTRAINT "alert_events_action" CHECK ("action" in ('acknowledged', 'resolved', 'snoozed', 'reopened', 'rule added', 'rule edited', 'rule paused', 'rule resumed', 'rule removed'))
);
--> statement-breakpoint
CREATE INDEX "alert_events_alert" ON "regwatch"."alert_events" ("alert_id", "id") WHERE "alert_id" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "alert_events_rule" ON "regwatch"."alert_events" ("rule_id", "id");
--> statement-breakpoint
-- The latest action each alert recorded before this migration becomes its first event.
INSERT INTO "regwatch"."alert_events" ("rule_id", "alert_id", "at", "by", "action", "note", "snoozed_until")
SELECT a.rule_id, a.id, a.status_at, coalesce(a.status_by, 'regwatch'),
       CASE a.status WHEN 'open' THEN 'reopened' ELSE a.status END, a.status_note, a.snoozed_until
FROM "regwatch"."alerts" a
WHERE a.status_at IS NOT NULL
ORDER BY a.status_at, a.id;
--> statement-breakpoint
ALTER TABLE "regwatch"."alert_scans" ADD COLUMN "queued" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_rules.removed_at IS 'When the rule was removed (regwatch alerts rule remove); null while it is in use. A removed rule raises nothing; its alerts and their history stay.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_rules.updated_at IS 'When the rule was last added, edited, paused, resumed or removed.';
--> statement-breakpoint
COMMENT ON TABLE regwatch.alert_events IS 'The history of alerts and rules: one row per lifecycle action (ack, resolve, snooze, reopen, rule add, edit, pause, resume, remove), never overwritten.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_events.id IS 'Generated id; events of one alert or rule in the order they happened.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_events.rule_id IS 'The rule acted on, or the rule of the alert acted on.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_events.alert_id IS 'The alert acted on; null for an action on the rule itself.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_events.at IS 'When the action was taken.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_events.by IS 'Who acted (--by, or regwatch for a snooze that ended).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_events.action IS 'acknowledged, resolved, snoozed, reopened, or rule added/edited/paused/resumed/removed.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_events.note IS 'Why, as the person acting gave it (--note); null when none was given.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_events.snoozed_until IS 'Last day of the snooze, for a snoozed event.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_events.details IS 'For a rule added or edited: the rule''s settings before and after, as JSON.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_scans.queued IS 'Messages the scan queued for delivery (one per alert, one per digest rule).';
