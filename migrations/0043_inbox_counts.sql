-- The inbox's count cards in one ordered pass (issue 34: 50,000 open alerts answered in 100 ms).
--
-- alerts_open_change: the open alerts in change order with what the cards read of each (when it
-- was raised, who it is assigned to), so the changes with open alerts are grouped from the index
-- alone as it is read, with no hash of every open alert and no visit to the table.
-- changes_high_headings: the changes of a heading that makes them high (SEVERITY_RULE.headings,
-- src/alerts/severity.ts), in id order beside changes_bank_accounts and change_values_high_status,
-- so the count of high changes merges three small id lists instead of reading every open change's
-- headings. Its predicate is the one src/db/console-inbox-changes.ts writes (HIGH_HEADINGS).
CREATE INDEX "alerts_open_change" ON "regwatch"."alerts" ("change_id") INCLUDE ("raised_at", "assigned_to") WHERE "status" = 'open';
--> statement-breakpoint
CREATE INDEX "changes_high_headings" ON "regwatch"."changes" ("id") WHERE "changed_headings" && ARRAY['bank_accounts', 'long_name', 'short_name', 'full_name', 'name']::text[];
