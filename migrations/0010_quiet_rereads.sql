-- changes.raw keeps only what the typed columns do not hold; v_changes.raw gives back the whole item.
UPDATE regwatch.changes c
SET raw = c.raw - array(
  SELECT t.k
  FROM jsonb_each(jsonb_build_object(
    'change', to_char(c.change_date, 'YYYY-MM-DD'),
    'tax_id', c.tax_id,
    'chapter', c.chapter,
    'changed_headings', to_jsonb(c.changed_headings),
    'path', c.path)) AS t(k, v)
  WHERE c.raw -> t.k = t.v)
WHERE c.raw ?| array['change', 'tax_id', 'chapter', 'changed_headings', 'path'];
--> statement-breakpoint
CREATE OR REPLACE VIEW regwatch.v_changes AS
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
       jsonb_build_object(
         'change', to_char(c.change_date, 'YYYY-MM-DD'),
         'tax_id', c.tax_id,
         'chapter', c.chapter,
         'changed_headings', to_jsonb(c.changed_headings),
         'path', c.path) || c.raw AS raw
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
COMMENT ON COLUMN regwatch.changes.raw IS 'The fields of the change as received that the columns above do not hold (fields the registry''s document does not name; a named field only when its received form differs, e.g. a numeric chapter); {} when none. v_changes.raw is the whole item.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.changes.last_seen_at IS 'When the row last changed: first stored, or a re-read that brought different headings or fields. A re-read that brings nothing new writes nothing; when the change''s days were last read is coverage.fetched_at.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_changes.raw IS 'The change as received: the typed columns merged with changes.raw.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.watched_items.last_seen_at IS 'When the row last changed: first read, or a read that brought a different added_at. Every item on a list was read at the list''s last reconcile (rows no longer returned are deleted).';
