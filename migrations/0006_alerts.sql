CREATE TABLE "regwatch"."alert_rules" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"lists" text[] DEFAULT '{}'::text[] NOT NULL,
	"headings" text[] DEFAULT '{}'::text[] NOT NULL,
	"channel" text NOT NULL,
	"target" text NOT NULL,
	"digest" boolean DEFAULT false NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alert_rules_name" UNIQUE("name"),
	CONSTRAINT "alert_rules_channel" CHECK ("channel" in ('webhook', 'email', 'notify'))
);
--> statement-breakpoint
CREATE TABLE "regwatch"."alerts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"rule_id" bigint NOT NULL REFERENCES "regwatch"."alert_rules"("id") ON DELETE CASCADE,
	"change_id" bigint NOT NULL REFERENCES "regwatch"."changes"("id") ON DELETE CASCADE,
	"run_id" bigint,
	"status" text DEFAULT 'open' NOT NULL,
	"snoozed_until" date,
	"status_by" text,
	"status_note" text,
	"status_at" timestamp with time zone,
	"raised_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alerts_rule_change" UNIQUE("rule_id", "change_id"),
	CONSTRAINT "alerts_status" CHECK ("status" in ('open', 'acknowledged', 'resolved', 'snoozed')),
	CONSTRAINT "alerts_snooze_date" CHECK ("status" <> 'snoozed' or "snoozed_until" is not null)
);
--> statement-breakpoint
CREATE INDEX "alerts_status" ON "regwatch"."alerts" USING btree ("status");--> statement-breakpoint
CREATE INDEX "alerts_change" ON "regwatch"."alerts" USING btree ("change_id");--> statement-breakpoint
CREATE TABLE "regwatch"."alert_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"message_id" text DEFAULT ('msg_' || replace(gen_random_uuid()::text, '-', '')) NOT NULL,
	"rule_id" bigint NOT NULL REFERENCES "regwatch"."alert_rules"("id") ON DELETE CASCADE,
	"run_id" bigint,
	"kind" text NOT NULL,
	"alert_ids" bigint[] NOT NULL,
	"channel" text NOT NULL,
	"target" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_attempt_at" timestamp with time zone,
	"last_status" integer,
	"last_reply" text,
	"last_error" text,
	"payload" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "alert_deliveries_message_id" UNIQUE("message_id"),
	CONSTRAINT "alert_deliveries_kind" CHECK ("kind" in ('alert', 'digest')),
	CONSTRAINT "alert_deliveries_status" CHECK ("status" in ('pending', 'sent', 'dead'))
);
--> statement-breakpoint
CREATE INDEX "alert_deliveries_due" ON "regwatch"."alert_deliveries" USING btree ("next_attempt_at") WHERE "status" = 'pending';--> statement-breakpoint
CREATE INDEX "alert_deliveries_alerts" ON "regwatch"."alert_deliveries" USING gin ("alert_ids");--> statement-breakpoint
CREATE TABLE "regwatch"."alert_scans" (
	"run_id" bigint PRIMARY KEY NOT NULL,
	"raised" integer NOT NULL,
	"last_change_id" bigint NOT NULL,
	"scanned_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
INSERT INTO "regwatch"."alert_scans" ("run_id", "raised", "last_change_id") SELECT "id", 0, (SELECT coalesce(max("id"), 0) FROM "regwatch"."changes") FROM "regwatch"."runs" WHERE "kind" in ('sync', 'backfill') AND "status" <> 'running';--> statement-breakpoint
CREATE VIEW regwatch.v_open_alerts AS
SELECT a.id AS alert_id,
       r.name AS rule_name,
       r.channel,
       c.tax_id,
       p.name,
       c.change_date,
       c.changed_headings,
       (SELECT array_agg(DISTINCT coalesce(w.list_name, s.list_key) ORDER BY coalesce(w.list_name, s.list_key))
          FROM regwatch.change_sources s LEFT JOIN regwatch.watch_lists w ON w.list_key = s.list_key
         WHERE s.change_id = c.id) AS lists,
       a.raised_at,
       a.status AS stored_status,
       a.snoozed_until,
       (SELECT CASE WHEN bool_or(d.status = 'dead') THEN 'dead'
                    WHEN bool_or(d.status = 'pending') THEN 'pending'
                    WHEN bool_or(d.status = 'sent') THEN 'sent' END
          FROM regwatch.alert_deliveries d WHERE a.id = ANY (d.alert_ids)) AS delivery
FROM regwatch.alerts a
JOIN regwatch.alert_rules r ON r.id = a.rule_id
JOIN regwatch.changes c ON c.id = a.change_id
LEFT JOIN regwatch.business_profiles p ON p.tax_id = c.tax_id
WHERE a.status = 'open' OR (a.status = 'snoozed' AND a.snoozed_until < current_date);--> statement-breakpoint
COMMENT ON TABLE regwatch.alert_rules IS 'Who is told about which changes, and how: one row per alert rule (regwatch alerts rule add).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_rules.id IS 'Generated id of the rule.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_rules.name IS 'Unique name operators use for the rule.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_rules.lists IS 'Watch list names (or keys) whose changes the rule covers; empty means every list.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_rules.headings IS 'Headings the rule covers (a change matches when any of its changed headings is listed); empty means every heading.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_rules.channel IS 'How alerts are sent: webhook (signed POST), email (SMTP) or notify (Postgres pg_notify).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_rules.target IS 'Webhook URL, e-mail address list (comma-separated) or NOTIFY channel name. Never a secret: the webhook secret and SMTP password come from the environment.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_rules.digest IS 'True: one message per run listing every alert of the rule; false: one message per alert.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_rules.enabled IS 'A disabled rule raises no new alerts.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_rules.created_at IS 'When the rule was created; only changes first stored after it raise alerts.';--> statement-breakpoint
COMMENT ON TABLE regwatch.alerts IS 'One alert per (rule, change): a change reported by several lists is one alert. Raised for changes first stored by a sync (or a backfill run with --alert-history) after the rule was created.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.alerts.id IS 'Generated id of the alert, used by alerts ack/resolve/snooze and in every message.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.alerts.rule_id IS 'The rule that raised the alert (regwatch.alert_rules.id); removing the rule removes its alerts.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.alerts.change_id IS 'The change the alert is about (regwatch.changes.id).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.alerts.run_id IS 'The sync or backfill run that first stored the change (regwatch.runs.id).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.alerts.status IS 'Lifecycle: open, acknowledged, resolved, or snoozed (reopens after snoozed_until).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.alerts.snoozed_until IS 'Last day of a snooze; the alert is open again from the day after.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.alerts.status_by IS 'Who set the current status (--by), or regwatch when a snooze ended.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.alerts.status_note IS 'Why the status was set (--note).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.alerts.status_at IS 'When the current status was set; null while the alert is as raised.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.alerts.raised_at IS 'When the alert was raised.';--> statement-breakpoint
COMMENT ON TABLE regwatch.alert_deliveries IS 'Outbox of alert messages: one row per message and target, sent at least once, retried with backoff until sent or dead.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_deliveries.id IS 'Generated id of the delivery.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_deliveries.message_id IS 'Id of the message (webhook-id header, e-mail Message-ID): the same on every retry, so receivers can drop duplicates.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_deliveries.rule_id IS 'The rule whose message this is.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_deliveries.run_id IS 'The run whose changes raised the alerts.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_deliveries.kind IS 'alert (one alert) or digest (every alert of the rule in one run).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_deliveries.alert_ids IS 'The alerts (regwatch.alerts.id) the message reports.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_deliveries.channel IS 'webhook, email or notify, copied from the rule.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_deliveries.target IS 'URL, address list or NOTIFY channel, copied from the rule.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_deliveries.status IS 'pending (to be sent or retried), sent (accepted by the receiver), dead (refused for good or out of attempts).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_deliveries.attempts IS 'Attempts made so far.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_deliveries.next_attempt_at IS 'When a pending message is due (exponential backoff with jitter, never before a Retry-After).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_deliveries.last_attempt_at IS 'When the last attempt was made.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_deliveries.last_status IS 'HTTP status of the last webhook attempt, or SMTP reply code of the last e-mail attempt.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_deliveries.last_reply IS 'The receiver''s last reply (HTTP status text and start of the body, or the SMTP reply), secrets scrubbed.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_deliveries.last_error IS 'Why the last attempt failed, secrets scrubbed; null after a success.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_deliveries.payload IS 'The message body, fixed at the first attempt so every retry sends the same content.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_deliveries.created_at IS 'When the message was queued (same transaction as its alerts).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_deliveries.sent_at IS 'When the receiver accepted the message.';--> statement-breakpoint
COMMENT ON TABLE regwatch.alert_scans IS 'Durable cursor of alert raising: a sync or backfill run is listed once the alerts for the changes it first stored have been raised (in the same transaction), so a crash between a run''s commit and raising loses nothing.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_scans.run_id IS 'The scanned run (regwatch.runs.id).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_scans.raised IS 'Alerts raised for the run.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_scans.last_change_id IS 'Cursor over regwatch.changes.id: the highest change id scanned so far (runs write changes one at a time, under the run lock, so each run''s new changes lie above the previous run''s).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_scans.scanned_at IS 'When the run was scanned.';--> statement-breakpoint
COMMENT ON VIEW regwatch.v_open_alerts IS 'Alerts someone should look at: open ones and snoozed ones whose snooze has ended, with the business, change, lists and delivery state.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_open_alerts.alert_id IS 'The alert (regwatch.alerts.id).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_open_alerts.rule_name IS 'Name of the rule that raised it.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_open_alerts.channel IS 'The rule''s channel.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_open_alerts.tax_id IS 'Tax base number of the business that changed.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_open_alerts.name IS 'Best known name of the business (business_profiles).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_open_alerts.change_date IS 'Day of the change.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_open_alerts.changed_headings IS 'Headings the change touched.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_open_alerts.lists IS 'Names of the lists that reported the change.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_open_alerts.raised_at IS 'When the alert was raised.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_open_alerts.stored_status IS 'Status as stored: open, or snoozed when the snooze ended and no delivery pass has reopened it yet.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_open_alerts.snoozed_until IS 'Last day of an ended snooze, else null.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_open_alerts.delivery IS 'Worst state of the alert''s messages: dead, pending or sent (null when none).';
