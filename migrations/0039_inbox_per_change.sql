-- The inbox for people (issue 34): one row per change, alerts assigned to a user.
--
-- alerts.assigned_to: the console user an alert is assigned to (by name; null when nobody). Each
-- assignment is an alert_events row with action 'assigned' (details: from, to).
-- alerts_status_change: the inbox groups a status's alerts per change, newest change first; the
-- index gives the changes in that order with the alert and rule of each entry, so a page of
-- changes is read without aggregating every open alert.
ALTER TABLE "regwatch"."alerts" ADD COLUMN "assigned_to" text;
--> statement-breakpoint
COMMENT ON COLUMN regwatch.alerts.assigned_to IS 'The console user the alert is assigned to (name), null when nobody; each assignment is an alert_events row (assigned).';
--> statement-breakpoint
ALTER TABLE "regwatch"."alert_events" DROP CONSTRAINT "alert_events_action";
--> statement-breakpoint
ALTER TABLE "regwatch"."alert_events" ADD CONSTRAINT "alert_events_action" CHECK ("action" in ('acknowledged', 'resolved', 'snoozed', 'reopened', 'commented', 'assigned', 'rule added', 'rule edited', 'rule paused', 'rule resumed', 'rule removed'));
--> statement-breakpoint
CREATE INDEX "alerts_status_change" ON "regwatch"."alerts" ("status", "change_id" DESC) INCLUDE ("id", "rule_id", "assigned_to", "raised_at");
--> statement-breakpoint
-- Changes whose status became ceased (0) or suspended (2): high in the inbox. The inbox's count
-- of high changes reads this small index instead of every open change's values; its predicate is
-- the one src/db/console-inbox-changes.ts writes (HIGH_STATUS).
CREATE INDEX "change_values_high_status" ON "regwatch"."change_values" ("change_id") WHERE "heading" IN ('status', 'status_code') AND ("new_value" #>> '{}') IN ('0', '2');
