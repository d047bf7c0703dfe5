-- Values are attributed, never assumed: a change file's entries go only to the change of the
-- business (and chapter) they name, and same-day values of one heading are ordered by their
-- chain (the old value of one is the new value of the one before), not by storage order.
ALTER TABLE "regwatch"."change_values" ADD COLUMN "day_order" integer;
--> statement-breakpoint
ALTER TABLE "regwatch"."change_values" ADD COLUMN "order_ambiguous" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "regwatch"."change_files" DROP CONSTRAINT "change_files_parse_status";
--> statement-breakpoint
ALTER TABLE "regwatch"."change_files" ADD CONSTRAINT "change_files_parse_status"
  CHECK ("parse_status" IS NULL OR "parse_status" IN ('parsed', 'unrecognised', 'failed', 'unattributed'));
--> statement-breakpoint
COMMENT ON COLUMN regwatch.change_values.day_order IS 'Position of this value among the same business''s values of the heading on the same day (1 = first), decided by chaining old and new values; null when the order is ambiguous.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.change_values.order_ambiguous IS 'True when the business has several values of this heading on this day and no chain of old and new values decides their order (or one file''s values of it do not chain, see file_order_ambiguous): the value after that day is not known.';
--> statement-breakpoint
ALTER TABLE "regwatch"."change_values" ADD COLUMN "file_order_ambiguous" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
COMMENT ON COLUMN regwatch.change_values.file_order_ambiguous IS 'True when the change file gave this heading more than once for the change and the values do not chain into one order: old_value and new_value are then the first and last in file order, not known to be the net change (order_ambiguous is true as well).';
--> statement-breakpoint
COMMENT ON TABLE regwatch.change_values IS 'What changed: one row per changed heading of a change, with its old and new value, parsed from the change file. Only entries naming the change''s business (and chapter, when they name one) give values, and only for headings the change lists; a heading given several times in one file nets to its first old and last new value when the values chain.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.change_files.parse_status IS 'Null until the fetched body is parsed; parsed (values in change_values), unrecognised (no parser knows the body, kept untouched), unattributed (read, but some change pointing at the file got no value for a heading it lists: see parse_error; values that could be attributed are kept) or failed (see parse_error).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.change_files.parse_error IS 'Why the body was unrecognised, unattributed or failed to parse.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.business_profiles.headings IS 'Every known heading: {"<heading>": {"value": ..., "as_of": "YYYY-MM-DD", "source": "search|operator|change_file"}}. A heading whose values on its last day cannot be ordered has "value": null, "order_ambiguous": true and the "candidates" it may hold. Change-file values dated after the last complete day are never taken.';
--> statement-breakpoint
-- The value after a day is the day's last value in chained order (day_order), the value before
-- it the first one's old value; a day whose order is not known gives null and names the heading
-- under "_order_ambiguous" instead of choosing by storage order.
CREATE OR REPLACE FUNCTION regwatch.business_as_of(tax_id text, day date) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  WITH profile AS (
    SELECT bp.baseline, bp.baseline_as_of FROM regwatch.business_profiles bp WHERE bp.tax_id = $1
  ), base AS (
    SELECT CASE e.key WHEN 'full_name' THEN 'long_name' WHEN 'status_code' THEN 'status' ELSE e.key END AS heading,
           e.value, p.baseline_as_of AS as_of, 2 AS rank, false AS ambiguous
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
           d.last_day AS as_of, 1 AS rank, bool_or(cv.order_ambiguous) AS ambiguous
    FROM days d
    JOIN regwatch.change_values cv ON cv.tax_id = $1 AND cv.heading = d.heading AND cv.change_date = d.last_day
    GROUP BY d.heading, d.last_day
  ), later AS (
    SELECT d.heading,
           (array_agg(cv.old_value ORDER BY cv.day_order NULLS LAST, cv.change_id))[1] AS value,
           NULL::date AS as_of, 3 AS rank, bool_or(cv.order_ambiguous) AS ambiguous
    FROM days d
    JOIN regwatch.change_values cv ON cv.tax_id = $1 AND cv.heading = d.heading AND cv.change_date = d.next_day
    GROUP BY d.heading
  ), known AS (
    SELECT DISTINCT ON (k.heading) k.heading, CASE WHEN k.ambiguous THEN NULL ELSE k.value END AS value, k.ambiguous
    FROM (SELECT * FROM upto UNION ALL SELECT * FROM base UNION ALL SELECT * FROM later) k
    ORDER BY k.heading, k.as_of DESC NULLS LAST, k.rank
  )
  SELECT coalesce(jsonb_object_agg(heading, value), '{}'::jsonb)
         || CASE WHEN bool_or(ambiguous)
                 THEN jsonb_build_object('_order_ambiguous', jsonb_agg(heading ORDER BY heading) FILTER (WHERE ambiguous))
                 ELSE '{}'::jsonb END
  FROM known
$$;
--> statement-breakpoint
COMMENT ON FUNCTION regwatch.business_as_of(text, date) IS 'Each known heading''s value of a business on a day, as {"heading": value}: the value after the last change on or before the day (the day''s last in chained order) or the baseline record if read by then, whichever is newer; else the old value of the first change after the day. A heading whose deciding day has values in no known order is null and listed under "_order_ambiguous" (absent when none is). Example: select regwatch.business_as_of(''12345678'', ''2024-03-01'').';
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
       cv.order_ambiguous
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
COMMENT ON COLUMN regwatch.v_heading_changes.day_order IS 'Position among the business''s values of the heading on that day (1 = first), from chaining old and new values; null when the order is ambiguous.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_heading_changes.order_ambiguous IS 'True when the business has several values of this heading that day in no known order: which of them held after the day is not known.';
--> statement-breakpoint
-- Values stored before this release were given to every change pointing at their file and
-- ordered by storage: every parsed file is parsed again (from what is stored, no request) at the
-- next sync or `regwatch reparse`, which also rebuilds the profiles of the businesses concerned.
UPDATE "regwatch"."change_files" SET "parse_status" = NULL WHERE "parse_status" IS NOT NULL;
