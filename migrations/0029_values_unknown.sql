-- Issue 35: silent only about what is unknown.
--
-- change_values.old_value_known: a change file entry may leave old_value out (a heading with no
-- earlier value, written with a person's label beside it). Its new value is kept; its old value
-- is unknown, which is neither a known null nor anything read from the label. old_value is then
-- null and old_value_known false.
--
-- v_unread_headings: a heading whose latest change has no values regwatch could read (its file not
-- fetched, refused, skipped, unreadable, or giving nothing for the heading) makes whatever is
-- stored for it stale from that day, until a search record read after the change says what holds.
ALTER TABLE "regwatch"."change_values" ADD COLUMN "old_value_known" boolean DEFAULT true NOT NULL;
--> statement-breakpoint
COMMENT ON COLUMN regwatch.change_values.old_value_known IS 'False when the change file''s entry gave no old_value: old_value is then null but not known to be null (nothing before, or a value the file did not say).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.change_values.old_value IS 'Value before the change, any JSON type; null for a first registration, or when old_value_known is false (the file did not say).';
--> statement-breakpoint
CREATE OR REPLACE VIEW regwatch.v_heading_changes AS
SELECT cv.change_id,
       cv.tax_id,
       coalesce(bp.name, b.full_name) AS business_name,
       cv.change_date,
       cv.heading,
       cv.old_value,
       cv.new_value,
       coalesce(src.list_names, '{}') AS list_names,
       c.chapter,
       cv.path,
       cv.day_order,
       cv.order_ambiguous,
       cv.old_value_known
FROM regwatch.change_values cv
JOIN regwatch.changes c ON c.id = cv.change_id
LEFT JOIN regwatch.business_profiles bp ON bp.tax_id = cv.tax_id
LEFT JOIN regwatch.businesses b ON b.tax_id = cv.tax_id
LEFT JOIN LATERAL (
  SELECT array_agg(DISTINCT coalesce(l.list_name, s.list_key)) AS list_names
  FROM regwatch.change_sources s
  LEFT JOIN regwatch.watch_lists l ON l.list_key = s.list_key
  WHERE s.change_id = cv.change_id
) src ON true;
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_heading_changes.old_value IS 'Value before the change (any JSON); null for a first registration, or when old_value_known is false.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_heading_changes.old_value_known IS 'False when the change file did not give the value before the change: old_value is null but not known to be.';
--> statement-breakpoint
CREATE VIEW regwatch.v_unread_headings AS
SELECT l.tax_id,
       l.heading,
       l.since,
       u.change_id,
       u.chapter,
       u.path,
       u.file_status,
       u.parse_status,
       u.file_error,
       u.parse_error
FROM (
  SELECT c.tax_id, h.heading, max(c.change_date) AS since
  FROM regwatch.changes c
  CROSS JOIN LATERAL unnest(c.changed_headings) AS h(heading)
  GROUP BY c.tax_id, h.heading
) l
CROSS JOIN LATERAL (
  SELECT c.id AS change_id, c.chapter, c.path, c.first_seen_at, f.status AS file_status,
         f.parse_status, f.last_error AS file_error, f.parse_error
  FROM regwatch.changes c
  LEFT JOIN regwatch.change_files f ON f.path = c.path
  WHERE c.tax_id = l.tax_id AND c.change_date = l.since AND l.heading = ANY (c.changed_headings)
    AND NOT EXISTS (
      SELECT 1 FROM regwatch.change_values cv WHERE cv.change_id = c.id AND cv.heading = l.heading)
  ORDER BY c.id
  LIMIT 1
) u
WHERE NOT EXISTS (
  -- The registry loads a day's changes the next morning: a record read after regwatch first saw the
  -- change, or from the second day after it, shows what holds since.
  SELECT 1 FROM regwatch.businesses b
  WHERE b.tax_id = l.tax_id AND jsonb_typeof(b.record) = 'object'
    AND b.record ? (CASE l.heading WHEN 'long_name' THEN 'full_name' WHEN 'status' THEN 'status_code' ELSE l.heading END)
    AND (b.fetched_at >= u.first_seen_at OR b.fetched_at::date > l.since + 1)
);
--> statement-breakpoint
COMMENT ON VIEW regwatch.v_unread_headings IS 'Headings whose latest change (by day) has no values regwatch could read: what is stored for them (profile, older changes, an older search record) is stale from `since`; a search record read after the change settles it. One row per business and heading.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_unread_headings.tax_id IS 'Tax base number of the business.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_unread_headings.heading IS 'The heading whose value is not known since the change.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_unread_headings.since IS 'Day of the latest change of the heading, whose values were not read: the value is unknown from that day.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_unread_headings.change_id IS 'The unread change (regwatch.changes.id); the first by id when several of that day are unread.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_unread_headings.chapter IS 'Chapter of the unread change.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_unread_headings.path IS 'Its change file.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_unread_headings.file_status IS 'change_files.status of its file (pending, fetched, failed, refused, skipped); null when no file row exists.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_unread_headings.parse_status IS 'change_files.parse_status of its file (null: not parsed yet).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_unread_headings.file_error IS 'Why fetching the file failed, as stored.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_unread_headings.parse_error IS 'Why parsing the file gave no value, as stored.';
--> statement-breakpoint
--> statement-breakpoint
CREATE OR REPLACE FUNCTION regwatch.business_as_of(tax_id text, day date) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  WITH profile AS (
    SELECT bp.baseline, bp.baseline_as_of FROM regwatch.business_profiles bp WHERE bp.tax_id = $1
  ), base AS (
    SELECT CASE e.key WHEN 'full_name' THEN 'long_name' WHEN 'status_code' THEN 'status' ELSE e.key END AS heading,
           e.value, p.baseline_as_of AS as_of, 2 AS rank, false AS ambiguous, false AS unknown
    FROM profile p, jsonb_each(CASE WHEN jsonb_typeof(p.baseline) = 'object' THEN p.baseline ELSE '{}'::jsonb END) e
    WHERE p.baseline_as_of <= $2
  ), days AS (
    SELECT cv.heading,
           max(cv.change_date) FILTER (WHERE cv.change_date <= $2) AS last_day,
           min(cv.change_date) FILTER (WHERE cv.change_date > $2) AS next_day
    FROM regwatch.change_values cv
    WHERE cv.tax_id = $1
    GROUP BY cv.heading
  ), upto AS (
    SELECT d.heading,
           (array_agg(cv.new_value ORDER BY cv.day_order DESC NULLS LAST, cv.change_id DESC))[1] AS value,
           d.last_day AS as_of, 1 AS rank, bool_or(cv.order_ambiguous) AS ambiguous, false AS unknown
    FROM days d
    JOIN regwatch.change_values cv ON cv.tax_id = $1 AND cv.heading = d.heading AND cv.change_date = d.last_day
    GROUP BY d.heading, d.last_day
  ), later AS (
    SELECT d.heading,
           (array_agg(cv.old_value ORDER BY cv.day_order NULLS LAST, cv.change_id))[1] AS value,
           NULL::date AS as_of, 3 AS rank, bool_or(cv.order_ambiguous) AS ambiguous,
           NOT (array_agg(cv.old_value_known ORDER BY cv.day_order NULLS LAST, cv.change_id))[1] AS unknown
    FROM days d
    JOIN regwatch.change_values cv ON cv.tax_id = $1 AND cv.heading = d.heading AND cv.change_date = d.next_day
    GROUP BY d.heading
  ), known AS (
    SELECT DISTINCT ON (k.heading) k.heading, CASE WHEN k.ambiguous OR k.unknown THEN NULL ELSE k.value END AS value,
           k.ambiguous, k.unknown AND NOT k.ambiguous AS unknown
    FROM (SELECT * FROM upto UNION ALL SELECT * FROM base UNION ALL SELECT * FROM later) k
    ORDER BY k.heading, k.as_of DESC NULLS LAST, k.rank
  )
  SELECT coalesce(jsonb_object_agg(heading, value), '{}'::jsonb)
         || CASE WHEN bool_or(ambiguous)
                 THEN jsonb_build_object('_order_ambiguous', jsonb_agg(heading ORDER BY heading) FILTER (WHERE ambiguous))
                 ELSE '{}'::jsonb END
         || CASE WHEN bool_or(unknown)
                 THEN jsonb_build_object('_unknown', jsonb_agg(heading ORDER BY heading) FILTER (WHERE unknown))
                 ELSE '{}'::jsonb END
  FROM known
$$;
--> statement-breakpoint
COMMENT ON FUNCTION regwatch.business_as_of(text, date) IS 'Each known heading''s value of a business on a day, as {"heading": value}: the value after the last change on or before the day (the day''s last in chained order) or the baseline record if read by then, whichever is newer; else the old value of the first change after the day. A heading whose deciding day has values in no known order is null and listed under "_order_ambiguous"; one whose value would be the old value of a later change whose file did not give it is null and listed under "_unknown" (each key absent when no heading is). Example: select regwatch.business_as_of(''12345678'', ''2024-03-01'').';
--> statement-breakpoint
-- Files left unrecognised only because an entry had no old_value beside a field of another name
-- are read now: every unrecognised file is parsed again (from what is stored, no request) at the
-- next sync or `regwatch reparse`.
UPDATE "regwatch"."change_files" SET "parse_status" = NULL WHERE "parse_status" = 'unrecognised';
--> statement-breakpoint
-- The payment guard's new verdicts: status_unverified and name_unverified (a status or name change
-- regwatch could not read), account_removed (the business removed the account), account_unconfirmed
-- (no source ever showed the account).
ALTER TABLE "regwatch"."payment_checks" DROP CONSTRAINT "payment_checks_verdict";
--> statement-breakpoint
ALTER TABLE "regwatch"."payment_checks" ADD CONSTRAINT "payment_checks_verdict" CHECK ("verdict" in ('invalid_tax_id', 'invalid_account', 'unknown_account_holder', 'business_ceased', 'status_unverified', 'business_suspended', 'account_removed', 'account_not_registered', 'name_mismatch', 'name_unverified', 'invalid_amount', 'account_recently_changed', 'account_change_unverified', 'account_unconfirmed', 'unknown_business', 'not_watched', 'ok'));
--> statement-breakpoint
-- The payment guard finds the business that replaced an account by the old values of its changes.
CREATE INDEX "change_values_bank_accounts_old" ON "regwatch"."change_values" USING gin (old_value jsonb_path_ops) WHERE heading = 'bank_accounts';
