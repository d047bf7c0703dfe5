-- Alerts follow the list that reported (issue 24).
--
-- change_sources_first_seen: a rule limited to some lists fires when one of them reports a change
-- for the first time, also when another list stored the change in an earlier run. That list's
-- change_sources row is then the only trace, so each run's scan looks for the rows first seen
-- during the run. Rows arrive in first_seen_at order, so a BRIN index finds them at almost no cost
-- per insert (measured on 1,000,000 rows in windows of 2,500: about 0.3 microseconds a row more,
-- against about 0.6 for a btree; the window write costs about 12 a change).
--
-- seen_headings: every heading the data has named, kept by the alert scan, so `alerts rule add`
-- can refuse a misspelt heading without reading every change.
--
-- alert_deliveries.tax_ids / oldest_change: messages about one business leave oldest change first.
CREATE INDEX "change_sources_first_seen" ON "regwatch"."change_sources" USING brin ("first_seen_at") WITH (autosummarize = on);
--> statement-breakpoint
CREATE TABLE "regwatch"."seen_headings" (
	"heading" text PRIMARY KEY NOT NULL,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
INSERT INTO "regwatch"."seen_headings" ("heading")
SELECT h FROM (
  SELECT unnest(changed_headings) AS h FROM regwatch.changes
  UNION SELECT heading FROM regwatch.change_values
  UNION SELECT jsonb_object_keys(headings) FROM regwatch.business_profiles WHERE jsonb_typeof(headings) = 'object'
) seen
WHERE h IS NOT NULL
ON CONFLICT DO NOTHING;
--> statement-breakpoint
ALTER TABLE "regwatch"."alert_deliveries" ADD COLUMN "tax_ids" text[] DEFAULT '{}'::text[] NOT NULL;
--> statement-breakpoint
ALTER TABLE "regwatch"."alert_deliveries" ADD COLUMN "oldest_change" date;
--> statement-breakpoint
UPDATE regwatch.alert_deliveries d
SET tax_ids = m.tax_ids, oldest_change = m.oldest
FROM (
  SELECT x.id, array_agg(DISTINCT c.tax_id ORDER BY c.tax_id) AS tax_ids, min(c.change_date) AS oldest
  FROM regwatch.alert_deliveries x
  CROSS JOIN unnest(x.alert_ids) AS u(alert_id)
  JOIN regwatch.alerts a ON a.id = u.alert_id
  JOIN regwatch.changes c ON c.id = a.change_id
  GROUP BY x.id
) m
WHERE m.id = d.id;
--> statement-breakpoint
-- A message whose alerts are gone (their change was deleted) keeps its place by its own day.
UPDATE regwatch.alert_deliveries SET oldest_change = created_at::date WHERE oldest_change IS NULL;
--> statement-breakpoint
ALTER TABLE "regwatch"."alert_deliveries" ALTER COLUMN "oldest_change" SET NOT NULL;
--> statement-breakpoint
CREATE INDEX "alert_deliveries_order" ON "regwatch"."alert_deliveries" USING btree ("oldest_change", "id") WHERE "status" = 'pending';
--> statement-breakpoint
-- Finds the pending messages about a business for the claim's check; written straight into the
-- tree (fastupdate off), since every search would otherwise read the whole list of pending entries.
CREATE INDEX "alert_deliveries_pending_businesses" ON "regwatch"."alert_deliveries" USING gin ("tax_ids") WITH (fastupdate = off) WHERE "status" = 'pending';
--> statement-breakpoint
COMMENT ON TABLE regwatch.seen_headings IS 'Every heading the data has named (a change''s changed_headings, a parsed value, a profile), kept up to date by the alert scan of each run; alerts rule add refuses a heading not seen here or in changes not scanned yet, unless --new-heading.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.seen_headings.heading IS 'The heading, as the registry names it.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.seen_headings.first_seen_at IS 'When regwatch first noted the heading (for headings seen before migration 0018: when it ran).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_deliveries.tax_ids IS 'Tax base numbers of the businesses the message reports: a message waits while an older one to the same receiver about one of them is pending.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_deliveries.oldest_change IS 'Day of the oldest change the message reports: pending messages are sent in this order (then by id), so messages about one business go oldest change first.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_rules.lists IS 'Watch list names (or keys) whose changes the rule covers; empty means every list. A listed rule fires when one of its lists reports a change for the first time after the rule was created, whichever list stored the change first.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.alert_rules.created_at IS 'When the rule was created: a rule covering every list raises alerts for changes first stored after it; a rule limited to lists for changes one of its lists first reports after it.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.alerts.run_id IS 'The sync or backfill run that first stored the change, or in which one of the rule''s lists first reported it (regwatch.runs.id).';
--> statement-breakpoint
COMMENT ON TABLE regwatch.alerts IS 'One alert per (rule, change): a change reported by several lists is one alert. Raised by a sync (or a backfill run with --alert-history) for changes first stored after the rule was created, or, for a rule limited to lists, first reported by one of its lists after it.';
