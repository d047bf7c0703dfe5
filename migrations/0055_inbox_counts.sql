-- The inbox's count cards kept as alerts change (issue 50 point 5), instead of grouping every open
-- alert on each view. inbox_open_changes holds one row per change with an open alert: how many,
-- when the newest was raised, and whether the change is high or of a bank account (the cards'
-- filters). Statement-level triggers on alerts, change_values and changes refresh the rows of the
-- changes a statement touched. A refresh first locks those rows (inserting any missing), in change
-- order, then recounts them from alerts in a statement of its own: under READ COMMITTED that
-- statement's snapshot sees whatever an earlier writer of the same change committed while this one
-- waited for its lock, so two transactions changing alerts of one change never lose a count.
-- Snoozes need nothing here: a snoozed alert is not open, and the console reopens ended snoozes by
-- the registry's day (an update of alerts like any other) before it reads the cards.
-- "Assigned to me" is per user and read from alerts_open_assigned instead.
CREATE TABLE "regwatch"."inbox_open_changes" (
	"change_id" bigint PRIMARY KEY NOT NULL,
	"open_alerts" integer NOT NULL,
	"newest_raised_at" timestamp with time zone,
	"high" boolean NOT NULL,
	"bank_accounts" boolean NOT NULL
);
--> statement-breakpoint
CREATE INDEX "alerts_open_assigned" ON "regwatch"."alerts" USING btree ("assigned_to","change_id") WHERE "regwatch"."alerts"."status" = 'open';
--> statement-breakpoint
CREATE FUNCTION regwatch.refresh_inbox_open_changes(ids bigint[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(cardinality(ids), 0) = 0 THEN
    RETURN;
  END IF;
  INSERT INTO regwatch.inbox_open_changes AS o (change_id, open_alerts, high, bank_accounts)
  SELECT DISTINCT u.id, 0, false, false FROM unnest(ids) u(id) WHERE u.id IS NOT NULL ORDER BY 1
  ON CONFLICT (change_id) DO UPDATE SET open_alerts = o.open_alerts;
  UPDATE regwatch.inbox_open_changes o
  SET open_alerts = f.open_alerts, newest_raised_at = f.newest, high = f.high, bank_accounts = f.bank
  FROM (
    SELECT u.id, n.open_alerts, n.newest,
           coalesce(c.changed_headings && ARRAY['bank_accounts', 'long_name', 'short_name', 'full_name', 'name']::text[], false)
             OR EXISTS (SELECT 1 FROM regwatch.change_values v
                        WHERE v.change_id = u.id AND v.heading IN ('status', 'status_code')
                          AND (v.new_value #>> '{}') IN ('0', '2')) AS high,
           coalesce('bank_accounts' = ANY (c.changed_headings), false) AS bank
    FROM (SELECT DISTINCT id FROM unnest(ids) x(id)) u
    LEFT JOIN regwatch.changes c ON c.id = u.id
    CROSS JOIN LATERAL (SELECT count(*)::int AS open_alerts, max(a.raised_at) AS newest
                        FROM regwatch.alerts a WHERE a.change_id = u.id AND a.status = 'open') n
  ) f
  WHERE o.change_id = f.id;
  DELETE FROM regwatch.inbox_open_changes WHERE change_id = ANY (ids) AND open_alerts = 0;
END
$$;
--> statement-breakpoint
-- Alerts: the changes of rows that were or became open, or whose open alert changed its time or change.
CREATE FUNCTION regwatch.alerts_keep_inbox_open_changes() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM regwatch.refresh_inbox_open_changes(ARRAY(SELECT change_id FROM new_rows WHERE status = 'open'));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM regwatch.refresh_inbox_open_changes(ARRAY(SELECT change_id FROM old_rows WHERE status = 'open'));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM regwatch.refresh_inbox_open_changes(ARRAY(
      SELECT x.id FROM old_rows o JOIN new_rows n ON n.id = o.id
      CROSS JOIN LATERAL (VALUES (o.change_id), (n.change_id)) x(id)
      WHERE (o.status = 'open' OR n.status = 'open')
        AND (o.status IS DISTINCT FROM n.status OR o.raised_at IS DISTINCT FROM n.raised_at
             OR o.change_id IS DISTINCT FROM n.change_id)));
  ELSE
    DELETE FROM regwatch.inbox_open_changes;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A change's values (a status to ceased or suspended makes it high) and headings.
CREATE FUNCTION regwatch.changes_keep_inbox_open_changes() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'changes' THEN
    PERFORM regwatch.refresh_inbox_open_changes(ARRAY(
      SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
      JOIN regwatch.inbox_open_changes i ON i.change_id = n.id
      WHERE o.changed_headings IS DISTINCT FROM n.changed_headings));
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM regwatch.refresh_inbox_open_changes(ARRAY(SELECT change_id FROM new_rows));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM regwatch.refresh_inbox_open_changes(ARRAY(SELECT change_id FROM old_rows));
  ELSE
    PERFORM regwatch.refresh_inbox_open_changes(ARRAY(
      SELECT change_id FROM old_rows UNION SELECT change_id FROM new_rows));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "alerts_inbox_insert" AFTER INSERT ON "regwatch"."alerts" REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION regwatch.alerts_keep_inbox_open_changes();
--> statement-breakpoint
CREATE TRIGGER "alerts_inbox_update" AFTER UPDATE ON "regwatch"."alerts" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION regwatch.alerts_keep_inbox_open_changes();
--> statement-breakpoint
CREATE TRIGGER "alerts_inbox_delete" AFTER DELETE ON "regwatch"."alerts" REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION regwatch.alerts_keep_inbox_open_changes();
--> statement-breakpoint
CREATE TRIGGER "alerts_inbox_truncate" AFTER TRUNCATE ON "regwatch"."alerts"
FOR EACH STATEMENT EXECUTE FUNCTION regwatch.alerts_keep_inbox_open_changes();
--> statement-breakpoint
CREATE TRIGGER "change_values_inbox_insert" AFTER INSERT ON "regwatch"."change_values" REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION regwatch.changes_keep_inbox_open_changes();
--> statement-breakpoint
CREATE TRIGGER "change_values_inbox_update" AFTER UPDATE ON "regwatch"."change_values" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION regwatch.changes_keep_inbox_open_changes();
--> statement-breakpoint
CREATE TRIGGER "change_values_inbox_delete" AFTER DELETE ON "regwatch"."change_values" REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION regwatch.changes_keep_inbox_open_changes();
--> statement-breakpoint
CREATE TRIGGER "changes_inbox_update" AFTER UPDATE ON "regwatch"."changes" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION regwatch.changes_keep_inbox_open_changes();
--> statement-breakpoint
-- The open alerts there are now.
SELECT regwatch.refresh_inbox_open_changes(ARRAY(SELECT DISTINCT change_id FROM regwatch.alerts WHERE status = 'open'));
--> statement-breakpoint
COMMENT ON TABLE regwatch.inbox_open_changes IS 'One row per change with an open alert, for the console inbox''s count cards: how many open alerts, when the newest was raised, whether the change is high or of a bank account. Kept by triggers on alerts, change_values and changes. Example: select count(*) filter (where high) from regwatch.inbox_open_changes.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.inbox_open_changes.change_id IS 'The change (changes.id) whose open alerts this row counts.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.inbox_open_changes.open_alerts IS 'How many of the change''s alerts are open now.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.inbox_open_changes.newest_raised_at IS 'When the newest of those open alerts was raised.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.inbox_open_changes.high IS 'Whether the change touches a heading the console counts as high (the high card''s filter).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.inbox_open_changes.bank_accounts IS 'Whether the change touches the business''s bank accounts (the bank-account card''s filter).';
