-- What changed, for BI: heading values with names and lists, bank-account changes as account
-- lists, a business as of any day, and the best known name wherever a business is shown.

-- The accounts a bank_accounts value holds, as sorted text: accepts an array of {bank_account}
-- objects or of strings (or one of them alone); anything else holds no account.
CREATE FUNCTION regwatch.bank_account_list(value jsonb) RETURNS text[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(array_agg(DISTINCT a ORDER BY a), '{}'::text[])
  FROM (
    SELECT btrim(CASE jsonb_typeof(e) WHEN 'object' THEN e ->> 'bank_account' WHEN 'string' THEN e #>> '{}' END) AS a
    FROM jsonb_array_elements(
      CASE jsonb_typeof($1) WHEN 'array' THEN $1 WHEN 'object' THEN jsonb_build_array($1)
        WHEN 'string' THEN jsonb_build_array($1) ELSE '[]'::jsonb END
    ) AS e
  ) x
  WHERE a IS NOT NULL AND a <> ''
$$;
--> statement-breakpoint
CREATE VIEW regwatch.v_heading_changes AS
SELECT cv.change_id,
       cv.tax_id,
       coalesce(bp.name, b.full_name) AS business_name,
       cv.change_date,
       cv.heading,
       cv.old_value,
       cv.new_value,
       coalesce(src.list_names, '{}') AS list_names,
       c.chapter,
       cv.path
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
CREATE VIEW regwatch.v_bank_account_changes AS
SELECT h.change_id,
       h.tax_id,
       h.business_name,
       h.change_date,
       regwatch.bank_account_list(h.old_value) AS accounts_before,
       regwatch.bank_account_list(h.new_value) AS accounts_after,
       ARRAY(SELECT unnest(regwatch.bank_account_list(h.new_value))
             EXCEPT SELECT unnest(regwatch.bank_account_list(h.old_value)) ORDER BY 1) AS added,
       ARRAY(SELECT unnest(regwatch.bank_account_list(h.old_value))
             EXCEPT SELECT unnest(regwatch.bank_account_list(h.new_value)) ORDER BY 1) AS removed,
       h.list_names,
       h.path
FROM regwatch.v_heading_changes h
WHERE h.heading = 'bank_accounts';
--> statement-breakpoint
-- Each heading's value on a day: the newest of (the latest change on or before the day, the
-- baseline record if it was read by then); failing both, the old value of the first change after
-- the day, which is what held until then. A value first known after the day is never shown.
CREATE FUNCTION regwatch.business_as_of(tax_id text, day date) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  WITH profile AS (
    SELECT bp.baseline, bp.baseline_as_of FROM regwatch.business_profiles bp WHERE bp.tax_id = $1
  ), base AS (
    SELECT CASE e.key WHEN 'full_name' THEN 'long_name' WHEN 'status_code' THEN 'status' ELSE e.key END AS heading,
           e.value, p.baseline_as_of AS as_of, 2 AS rank
    FROM profile p, jsonb_each(CASE WHEN jsonb_typeof(p.baseline) = 'object' THEN p.baseline ELSE '{}'::jsonb END) e
    WHERE p.baseline_as_of <= $2
  ), upto AS (
    SELECT DISTINCT ON (cv.heading) cv.heading, cv.new_value AS value, cv.change_date AS as_of, 1 AS rank
    FROM regwatch.change_values cv
    WHERE cv.tax_id = $1 AND cv.change_date <= $2
    ORDER BY cv.heading, cv.change_date DESC, cv.change_id DESC
  ), later AS (
    SELECT DISTINCT ON (cv.heading) cv.heading, cv.old_value AS value, NULL::date AS as_of, 3 AS rank
    FROM regwatch.change_values cv
    WHERE cv.tax_id = $1 AND cv.change_date > $2
    ORDER BY cv.heading, cv.change_date, cv.change_id
  ), known AS (
    SELECT DISTINCT ON (k.heading) k.heading, k.value
    FROM (SELECT * FROM upto UNION ALL SELECT * FROM base UNION ALL SELECT * FROM later) k
    ORDER BY k.heading, k.as_of DESC NULLS LAST, k.rank
  )
  SELECT coalesce(jsonb_object_agg(heading, value), '{}'::jsonb) FROM known
$$;
--> statement-breakpoint
-- Desired tax ids compare in normalised form (trimmed; a tax number reduced to its base), and the
-- name shown is the best known one.
CREATE OR REPLACE VIEW regwatch.v_watch_status AS
WITH remote AS (
  SELECT l.list_name, i.tax_id, i.added_at
  FROM regwatch.watched_items i
  JOIN regwatch.watch_lists l ON l.list_key = i.list_key AND l.deleted_at IS NULL
)
SELECT coalesce(d.list_name, r.list_name) AS list_name,
       coalesce(d.tax_id, r.tax_id) AS tax_id,
       d.tax_id IS NOT NULL AS desired,
       r.tax_id IS NOT NULL AS watched,
       r.added_at,
       o.op AS last_op,
       o.code AS last_code,
       o.message AS last_message,
       o.at AS last_outcome_at,
       CASE
         WHEN d.tax_id IS NOT NULL AND r.tax_id IS NOT NULL THEN 'in_sync'
         WHEN d.tax_id IS NOT NULL AND o.op = 'add' AND o.code IS NOT NULL THEN 'add_failed'
         WHEN d.tax_id IS NOT NULL THEN 'pending_add'
         WHEN dl.list_name IS NOT NULL AND dl.prune THEN 'pending_remove'
         ELSE 'unmanaged'
       END AS state,
       coalesce(bp.name, b.full_name) AS business_name
FROM (
  SELECT DISTINCT di.list_name,
         coalesce(substring(btrim(di.tax_id) from '^(\d{8})(-\d-\d{2})?$'), di.tax_id) AS tax_id
  FROM regwatch.desired_items di
) d
FULL JOIN remote r ON r.list_name = d.list_name AND r.tax_id = d.tax_id
LEFT JOIN regwatch.desired_lists dl ON dl.list_name = coalesce(d.list_name, r.list_name)
LEFT JOIN LATERAL (
  SELECT io.op, io.code, io.message, io.at
  FROM regwatch.item_outcomes io
  WHERE io.list_name = coalesce(d.list_name, r.list_name) AND io.tax_id = coalesce(d.tax_id, r.tax_id)
  ORDER BY io.at DESC
  LIMIT 1
) o ON true
LEFT JOIN regwatch.business_profiles bp ON bp.tax_id = coalesce(d.tax_id, r.tax_id)
LEFT JOIN regwatch.businesses b ON b.tax_id = coalesce(d.tax_id, r.tax_id);
--> statement-breakpoint
CREATE OR REPLACE VIEW regwatch.v_change_headings AS
SELECT c.id AS change_id,
       c.tax_id,
       coalesce(bp.name, n.name) AS business_name,
       c.change_date,
       h.heading,
       c.chapter,
       coalesce(src.list_names, '{}') AS list_names,
       f.status AS file_status,
       c.path
FROM regwatch.changes c
CROSS JOIN LATERAL unnest(c.changed_headings) AS h(heading)
LEFT JOIN regwatch.business_profiles bp ON bp.tax_id = c.tax_id
LEFT JOIN regwatch.v_business_names n ON n.tax_id = c.tax_id
LEFT JOIN regwatch.change_files f ON f.path = c.path
LEFT JOIN LATERAL (
  SELECT array_agg(DISTINCT coalesce(l.list_name, s.list_key)) AS list_names
  FROM regwatch.change_sources s
  LEFT JOIN regwatch.watch_lists l ON l.list_key = s.list_key
  WHERE s.change_id = c.id
) src ON true;
--> statement-breakpoint
COMMENT ON FUNCTION regwatch.bank_account_list(jsonb) IS 'The accounts a bank_accounts value holds, sorted text: accepts arrays of {"bank_account": ...} objects or of strings.';
--> statement-breakpoint
COMMENT ON FUNCTION regwatch.business_as_of(text, date) IS 'Each known heading''s value of a business on a day, as {"heading": value}: the latest change value on or before the day or the baseline record if read by then, whichever is newer; else the old value of the first later change. Example: select regwatch.business_as_of(''12345678'', ''2024-03-01'').';
--> statement-breakpoint
COMMENT ON VIEW regwatch.v_heading_changes IS 'What changed: one row per changed heading with its old and new value, the business''s best known name and the lists that reported the change. Newest first: order by change_date desc.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_heading_changes.change_id IS 'changes.id.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_heading_changes.tax_id IS 'Tax base number of the business that changed.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_heading_changes.business_name IS 'Best known name: business_profiles.name, else businesses.full_name.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_heading_changes.change_date IS 'Day of the change.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_heading_changes.heading IS 'The heading that changed.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_heading_changes.old_value IS 'Value before the change (any JSON); null for a first registration.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_heading_changes.new_value IS 'Value after the change (any JSON).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_heading_changes.list_names IS 'Names of the lists that reported the change.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_heading_changes.chapter IS 'Chapter of the change record.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_heading_changes.path IS 'The change file the values were read from.';
--> statement-breakpoint
COMMENT ON VIEW regwatch.v_bank_account_changes IS 'One row per bank-account change: the accounts before and after, and those added and removed, as text arrays.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_bank_account_changes.change_id IS 'changes.id.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_bank_account_changes.tax_id IS 'Tax base number of the business.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_bank_account_changes.business_name IS 'Best known name: business_profiles.name, else businesses.full_name.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_bank_account_changes.change_date IS 'Day of the change.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_bank_account_changes.accounts_before IS 'Accounts held before the change, sorted.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_bank_account_changes.accounts_after IS 'Accounts held after the change, sorted.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_bank_account_changes.added IS 'Accounts the change added (after but not before).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_bank_account_changes.removed IS 'Accounts the change removed (before but not after).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_bank_account_changes.list_names IS 'Names of the lists that reported the change.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_bank_account_changes.path IS 'The change file the accounts were read from.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_watch_status.tax_id IS 'Tax base number (a desired tax number is shown reduced to its base).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_watch_status.business_name IS 'Best known name: business_profiles.name, else businesses.full_name.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_change_headings.business_name IS 'Best known name: business_profiles.name, else v_business_names.name.';
