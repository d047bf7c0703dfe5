-- Delivery outside the run (issue 26): a deliverer claims messages with a lease, commits, sends with
-- no transaction open, then records each outcome under the lease it holds.
ALTER TABLE regwatch.alert_deliveries ADD COLUMN lease_until timestamptz;
--> statement-breakpoint
ALTER TABLE regwatch.alert_deliveries ADD COLUMN lease_token text;
--> statement-breakpoint
ALTER TABLE regwatch.alert_deliveries ADD COLUMN recipients jsonb;
--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_deliveries.lease_until IS 'Until when a deliverer holds the message to send it; past this instant the message is due again (its deliverer is presumed dead). Null when nobody holds it.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_deliveries.lease_token IS 'Which claim holds the lease: an outcome is recorded only by the claim that still holds the message.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_deliveries.recipients IS 'E-mail only: each recipient address with its outcome (sent, or the server''s refusal); a retry goes only to the recipients not yet accepted.';
--> statement-breakpoint
CREATE INDEX alert_deliveries_lease ON regwatch.alert_deliveries (lease_until) WHERE status = 'pending' AND lease_until IS NOT NULL;
