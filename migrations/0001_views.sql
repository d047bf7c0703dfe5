-- Views for BI tools (stable names, see docs/contracts.md).
CREATE VIEW regwatch.v_coverage AS
WITH days AS (
  SELECT DISTINCT c.list_key, d::date AS day
  FROM regwatch.coverage c, generate_series(c.start_date, c.end_date, interval '1 day') AS d
)
SELECT l.list_key,
       l.list_name,
       min(days.day) AS first_covered_day,
       max(days.day) AS last_covered_day,
       count(days.day)::int AS covered_days,
       CASE WHEN count(days.day) = 0 THEN 0
            ELSE (max(days.day) - min(days.day) + 1 - count(days.day))::int END AS gap_days,
       l.deleted_at IS NOT NULL AS deleted
FROM regwatch.watch_lists l
LEFT JOIN days ON days.list_key = l.list_key
GROUP BY l.list_key, l.list_name, l.deleted_at;
--> statement-breakpoint
CREATE VIEW regwatch.v_changes AS
SELECT c.id,
       c.tax_id,
       c.change_date,
       c.chapter,
       c.changed_headings,
       c.path,
       coalesce(src.list_keys, '{}') AS list_keys,
       coalesce(src.list_names, '{}') AS list_names,
       f.status AS file_status,
       f.content_type AS file_content_type,
       f.body_json AS file_json,
       b.full_name AS business_name,
       c.first_seen_at,
       c.raw
FROM regwatch.changes c
LEFT JOIN LATERAL (
  SELECT array_agg(s.list_key ORDER BY s.list_key) AS list_keys,
         array_agg(coalesce(l.list_name, s.list_key) ORDER BY s.list_key) AS list_names
  FROM regwatch.change_sources s
  LEFT JOIN regwatch.watch_lists l ON l.list_key = s.list_key
  WHERE s.change_id = c.id
) src ON true
LEFT JOIN regwatch.change_files f ON f.path = c.path
LEFT JOIN regwatch.businesses b ON b.tax_id = c.tax_id;
--> statement-breakpoint
CREATE VIEW regwatch.v_watch_status AS
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
       END AS state
FROM (SELECT di.list_name, di.tax_id FROM regwatch.desired_items di) d
FULL JOIN remote r ON r.list_name = d.list_name AND r.tax_id = d.tax_id
LEFT JOIN regwatch.desired_lists dl ON dl.list_name = coalesce(d.list_name, r.list_name)
LEFT JOIN LATERAL (
  SELECT io.op, io.code, io.message, io.at
  FROM regwatch.item_outcomes io
  WHERE io.list_name = coalesce(d.list_name, r.list_name) AND io.tax_id = coalesce(d.tax_id, r.tax_id)
  ORDER BY io.at DESC
  LIMIT 1
) o ON true;
