-- The BI surface: a comment on every table, column and view (docs/schema.md is generated from
-- them), more views for common questions, and business names on the watch status.

-- v_watch_status gains the business name at its end; the earlier columns are unchanged.
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
       b.full_name AS business_name
FROM (SELECT di.list_name, di.tax_id FROM regwatch.desired_items di) d
FULL JOIN remote r ON r.list_name = d.list_name AND r.tax_id = d.tax_id
LEFT JOIN regwatch.desired_lists dl ON dl.list_name = coalesce(d.list_name, r.list_name)
LEFT JOIN LATERAL (
  SELECT io.op, io.code, io.message, io.at
  FROM regwatch.item_outcomes io
  WHERE io.list_name = coalesce(d.list_name, r.list_name) AND io.tax_id = coalesce(d.tax_id, r.tax_id)
  ORDER BY io.at DESC
  LIMIT 1
) o ON true
LEFT JOIN regwatch.businesses b ON b.tax_id = coalesce(d.tax_id, r.tax_id);
--> statement-breakpoint
CREATE VIEW regwatch.v_business_names AS
SELECT b.tax_id,
       coalesce(b.full_name, b.short_name) AS name,
       b.short_name,
       b.type,
       b.status_code,
       CASE b.status_code WHEN 0 THEN 'ceased' WHEN 1 THEN 'operating' WHEN 2 THEN 'suspended' END AS status,
       b.registration_number,
       jsonb_array_length(b.records) > 1 AS changed_type,
       b.fetched_at
FROM regwatch.businesses b;
--> statement-breakpoint
CREATE VIEW regwatch.v_change_headings AS
SELECT c.id AS change_id,
       c.tax_id,
       n.name AS business_name,
       c.change_date,
       h.heading,
       c.chapter,
       coalesce(src.list_names, '{}') AS list_names,
       f.status AS file_status,
       c.path
FROM regwatch.changes c
CROSS JOIN LATERAL unnest(c.changed_headings) AS h(heading)
LEFT JOIN regwatch.v_business_names n ON n.tax_id = c.tax_id
LEFT JOIN regwatch.change_files f ON f.path = c.path
LEFT JOIN LATERAL (
  SELECT array_agg(DISTINCT coalesce(l.list_name, s.list_key)) AS list_names
  FROM regwatch.change_sources s
  LEFT JOIN regwatch.watch_lists l ON l.list_key = s.list_key
  WHERE s.change_id = c.id
) src ON true;
--> statement-breakpoint
CREATE VIEW regwatch.v_coverage_gaps AS
WITH days AS (
  SELECT DISTINCT c.list_key, d::date AS day
  FROM regwatch.coverage c, generate_series(c.start_date, c.end_date, interval '1 day') AS d
),
runs_of_days AS (
  -- Consecutive days share (day - row number): each such group is one covered stretch.
  SELECT list_key, min(day) AS first_day, max(day) AS last_day
  FROM (SELECT list_key, day, day - (row_number() OVER (PARTITION BY list_key ORDER BY day))::int AS grp
        FROM days) numbered
  GROUP BY list_key, grp
),
gaps AS (
  SELECT list_key,
         last_day + 1 AS gap_start,
         lead(first_day) OVER (PARTITION BY list_key ORDER BY first_day) - 1 AS gap_end
  FROM runs_of_days
)
SELECT g.list_key,
       l.list_name,
       g.gap_start,
       g.gap_end,
       (g.gap_end - g.gap_start + 1)::int AS gap_days
FROM gaps g
LEFT JOIN regwatch.watch_lists l ON l.list_key = g.list_key
WHERE g.gap_end IS NOT NULL;
--> statement-breakpoint
CREATE VIEW regwatch.v_item_failures AS
SELECT o.list_name,
       o.tax_id,
       n.name AS business_name,
       o.op,
       o.code,
       CASE o.code
         WHEN 404 THEN 'no such business in the registry'
         WHEN 409 THEN CASE o.op WHEN 'add' THEN 'already on the list' ELSE 'not in a state that allows removal' END
         WHEN 422 THEN 'invalid tax base number'
         WHEN 429 THEN 'list or contract limit reached'
         ELSE 'other failure'
       END AS reason,
       o.message,
       o.at,
       o.run_id,
       di.tax_id IS NOT NULL AS still_desired
FROM regwatch.item_outcomes o
LEFT JOIN regwatch.desired_items di ON di.list_name = o.list_name AND di.tax_id = o.tax_id
LEFT JOIN regwatch.v_business_names n ON n.tax_id = o.tax_id
WHERE o.code IS NOT NULL;
--> statement-breakpoint
CREATE VIEW regwatch.v_api_usage_monthly AS
SELECT to_char(u.day, 'YYYY-MM') AS month,
       u.api,
       sum(u.requests)::int AS requests,
       sum(u.errors)::int AS errors,
       count(DISTINCT u.day)::int AS active_days
FROM regwatch.api_usage u
GROUP BY to_char(u.day, 'YYYY-MM'), u.api;
--> statement-breakpoint
COMMENT ON SCHEMA regwatch IS 'regwatch: a copy of the business registry''s watch lists, their changes and search results, kept current by the regwatch service.';
--> statement-breakpoint
COMMENT ON TABLE regwatch.watch_lists IS 'Watch lists as the registry last returned them. A list no longer returned keeps its row, marked by deleted_at.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.watch_lists.list_key IS 'The registry''s identifier of the list.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.watch_lists.list_name IS 'Name of the list; desired_lists refers to lists by this name.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.watch_lists.created_at IS 'Day the list was created, as the registry reports it.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.watch_lists.watch_count IS 'Number of items on the list, as the registry last reported it.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.watch_lists.first_seen_at IS 'When regwatch first saw the list.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.watch_lists.last_seen_at IS 'When the registry last returned the list.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.watch_lists.deleted_at IS 'When the list stopped being returned; null while it exists.';
--> statement-breakpoint
COMMENT ON TABLE regwatch.watched_items IS 'Items (tax base numbers) on each remote list, as last read from the registry.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.watched_items.list_key IS 'List the item is on (watch_lists.list_key).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.watched_items.tax_id IS 'Tax base number of the watched business: 8 digits, the last a check digit.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.watched_items.added_at IS 'Day watching started, as the registry reports it.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.watched_items.first_seen_at IS 'When regwatch first saw the item on the list.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.watched_items.last_seen_at IS 'When the item was last read from the list.';
--> statement-breakpoint
COMMENT ON TABLE regwatch.desired_lists IS 'Lists whose contents regwatch manages: the reconciler makes the remote list of this name match desired_items.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.desired_lists.list_name IS 'Name of the remote list; created there by the reconciler when missing.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.desired_lists.prune IS 'When true, remote items not in desired_items are removed from the list.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.desired_lists.created_at IS 'When the row was created.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.desired_lists.updated_at IS 'When prune was last changed.';
--> statement-breakpoint
COMMENT ON TABLE regwatch.desired_items IS 'What should be watched, per list. Written by operators (regwatch watch), BI tools and other systems; read by the reconciler.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.desired_items.list_name IS 'Desired list the item belongs to (desired_lists.list_name).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.desired_items.tax_id IS 'Tax base number to watch: 8 digits, the last a check digit.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.desired_items.source IS 'Who wrote the row: cli (regwatch watch add), import (regwatch watch import), or a name chosen by another writer.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.desired_items.note IS 'Free text from whoever added the item.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.desired_items.created_at IS 'When the item was added.';
--> statement-breakpoint
COMMENT ON TABLE regwatch.item_outcomes IS 'Latest result of adding or removing each item on a remote list, as the registry answered it item by item.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.item_outcomes.list_name IS 'Name of the list the operation was on.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.item_outcomes.tax_id IS 'Tax base number the operation was about.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.item_outcomes.op IS 'add or remove.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.item_outcomes.code IS 'The registry''s item code when it failed: 404 no such business, 409 already on the list (add) or not removable (remove), 422 invalid tax id, 429 list or contract limit reached. Null when it succeeded.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.item_outcomes.message IS 'Readable explanation of the outcome.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.item_outcomes.at IS 'When the outcome was recorded.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.item_outcomes.run_id IS 'Run that made the request (runs.id).';
--> statement-breakpoint
COMMENT ON TABLE regwatch.coverage IS 'Intervals of changes fetched per list, as the registry reported them returned. Days not covered by any row are gaps.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.coverage.list_key IS 'List the interval was fetched for (watch_lists.list_key).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.coverage.start_date IS 'First day of the interval the registry says it returned.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.coverage.end_date IS 'Last day of the interval the registry says it returned.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.coverage.requested_start IS 'First day regwatch asked for; may differ from start_date.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.coverage.requested_end IS 'Last day regwatch asked for; may differ from end_date.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.coverage.change_count IS 'Number of changes the response held.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.coverage.run_id IS 'Run that fetched the interval (runs.id).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.coverage.fetched_at IS 'When the interval was fetched.';
--> statement-breakpoint
COMMENT ON TABLE regwatch.changes IS 'One row per distinct change of a watched business, whichever list or interval reported it.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.changes.id IS 'Surrogate key, referenced by change_sources.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.changes.tax_id IS 'Tax base number of the business that changed.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.changes.change_date IS 'Day of the change.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.changes.chapter IS 'Chapter of the change record, as the registry names it.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.changes.path IS 'Address of the file holding the change data (change_files.path).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.changes.changed_headings IS 'Registry headings that changed, e.g. long_name, bank_accounts; the full set of values is not documented.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.changes.raw IS 'The change exactly as received, fields not listed above included.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.changes.first_seen_at IS 'When regwatch first stored the change.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.changes.last_seen_at IS 'When the change was last reported by any list.';
--> statement-breakpoint
COMMENT ON TABLE regwatch.change_sources IS 'Which lists reported each change (a business on two lists is reported by both).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.change_sources.change_id IS 'The change (changes.id).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.change_sources.list_key IS 'A list that reported it (watch_lists.list_key).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.change_sources.first_seen_at IS 'When the list first reported the change.';
--> statement-breakpoint
COMMENT ON TABLE regwatch.change_files IS 'The files changes point to, one row per distinct path, with their download state and content.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.change_files.path IS 'Address of the file, as given in the change.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.change_files.status IS 'pending (not fetched yet), fetched, failed (will be retried), refused (address outside REGWATCH_FILE_ORIGINS, never fetched).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.change_files.http_status IS 'HTTP status of the last download attempt.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.change_files.content_type IS 'Content-Type the file was served with.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.change_files.sha256 IS 'SHA-256 of the body, hex.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.change_files.size_bytes IS 'Size of the body in bytes.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.change_files.body_json IS 'The body when it is JSON.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.change_files.body_bytes IS 'The body when it is not JSON.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.change_files.attempts IS 'Download attempts so far.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.change_files.last_error IS 'Why the last attempt failed, or why the path was refused.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.change_files.first_seen_at IS 'When a change first pointed to the file.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.change_files.fetched_at IS 'When the file was downloaded.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.change_files.updated_at IS 'When the row last changed.';
--> statement-breakpoint
COMMENT ON TABLE regwatch.runs IS 'Every run of a command or the daemon that calls the registry, with its outcome.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.runs.id IS 'Run number.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.runs.kind IS 'What ran: sync, backfill, reconcile, ...';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.runs.trigger IS 'What started it: cli, schedule (the daemon''s timetable) or catchup (a missed run made up at daemon start).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.runs.started_at IS 'When the run started.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.runs.finished_at IS 'When it finished; null while running.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.runs.status IS 'running, ok, partial (some work failed and stays pending) or failed.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.runs.stats IS 'Counts of the run (requests, windows, changes, files, ...), as JSON.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.runs.error IS 'Why the run failed.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.runs.pid IS 'Process id of the run.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.runs.host IS 'Host name of the machine the run was on.';
--> statement-breakpoint
COMMENT ON TABLE regwatch.api_usage IS 'Requests made to the registry per day, interface and endpoint; the search quota is counted from it.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.api_usage.day IS 'Day of the requests, in REGWATCH_TZ.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.api_usage.api IS 'Interface: watch, search or files.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.api_usage.endpoint IS 'Method and path pattern, e.g. GET /v1/names.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.api_usage.requests IS 'Requests sent, retries included.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.api_usage.errors IS 'Requests of those that failed.';
--> statement-breakpoint
COMMENT ON TABLE regwatch.businesses IS 'Search results kept by regwatch lookup and regwatch watch, one row per tax base number.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.businesses.tax_id IS 'Tax base number: the first 8 digits of tax_number.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.businesses.type IS 'Kind of business: companies, self_employed (sole proprietor), budget_orgs, civil_orgs.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.businesses.status_code IS 'As received: 0 ceased, 1 operating, 2 suspended (sole proprietors only).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.businesses.full_name IS 'Full name of the business.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.businesses.short_name IS 'Short name (companies and civil organisations).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.businesses.address IS 'Registered seat.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.businesses.tax_number IS 'Full tax number, xxxxxxxx-y-zz.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.businesses.registration_number IS 'Registration number; its format depends on the kind of business.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.businesses.record IS 'The newest business of this tax base number, as the search returned it.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.businesses.records IS 'Every business known for the number, newest first: two when it changed business type.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.businesses.fetched_at IS 'When the search last returned the business.';
--> statement-breakpoint
COMMENT ON VIEW regwatch.v_changes IS 'Each change with the lists that reported it, its file''s state and content, and the business name when known.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_changes.id IS 'changes.id.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_changes.tax_id IS 'Tax base number of the business that changed.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_changes.change_date IS 'Day of the change.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_changes.chapter IS 'Chapter of the change record.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_changes.changed_headings IS 'Registry headings that changed.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_changes.path IS 'Address of the change file.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_changes.list_keys IS 'Keys of the lists that reported the change.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_changes.list_names IS 'Names of those lists, in the order of list_keys.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_changes.file_status IS 'change_files.status of the change file; null when no file row exists yet.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_changes.file_content_type IS 'Content-Type of the change file.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_changes.file_json IS 'The change file''s content when it is JSON.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_changes.business_name IS 'Full name from businesses, when a search has returned the business.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_changes.first_seen_at IS 'When regwatch first stored the change.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_changes.raw IS 'The change as received.';
--> statement-breakpoint
COMMENT ON VIEW regwatch.v_coverage IS 'Per list: first and last covered day, number of covered days, and days missing in between.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_coverage.list_key IS 'watch_lists.list_key.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_coverage.list_name IS 'Name of the list.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_coverage.first_covered_day IS 'Earliest day covered; null when nothing was fetched yet.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_coverage.last_covered_day IS 'Latest day covered.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_coverage.covered_days IS 'Distinct days covered.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_coverage.gap_days IS 'Days between the first and the last covered day that no interval covers (v_coverage_gaps lists them).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_coverage.deleted IS 'The list no longer exists in the registry.';
--> statement-breakpoint
COMMENT ON VIEW regwatch.v_watch_status IS 'Desired items next to remote items and the last outcome of each, with a state: in_sync, pending_add, add_failed, pending_remove or unmanaged.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_watch_status.list_name IS 'Name of the list.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_watch_status.tax_id IS 'Tax base number.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_watch_status.desired IS 'The item is in desired_items.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_watch_status.watched IS 'The item is on the remote list (as last read).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_watch_status.added_at IS 'Day watching started, from the registry.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_watch_status.last_op IS 'Latest operation tried on the item: add or remove.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_watch_status.last_code IS 'Item code of that operation; null when it succeeded.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_watch_status.last_message IS 'Explanation of that outcome.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_watch_status.last_outcome_at IS 'When that outcome was recorded.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_watch_status.state IS 'in_sync (desired and watched), pending_add, add_failed (last add refused), pending_remove (watched, not desired, list prunes) or unmanaged (watched on a list regwatch does not prune).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_watch_status.business_name IS 'Full name from businesses, when known.';
--> statement-breakpoint
COMMENT ON VIEW regwatch.v_business_names IS 'The latest known name and status of each business a search returned, one row per tax base number.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_business_names.tax_id IS 'Tax base number.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_business_names.name IS 'Full name, else the short name.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_business_names.short_name IS 'Short name, when the business has one.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_business_names.type IS 'Kind of business.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_business_names.status_code IS 'status_code as received.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_business_names.status IS 'status_code in words: ceased, operating, suspended; null for a code not documented.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_business_names.registration_number IS 'Registration number.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_business_names.changed_type IS 'The tax base number belonged to more than one kind of business (businesses.records has several).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_business_names.fetched_at IS 'When the search last returned the business.';
--> statement-breakpoint
COMMENT ON VIEW regwatch.v_change_headings IS 'One row per change and changed heading, with the business name: filter on heading to follow one kind of change.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_change_headings.change_id IS 'changes.id.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_change_headings.tax_id IS 'Tax base number of the business that changed.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_change_headings.business_name IS 'Latest known name (v_business_names.name).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_change_headings.change_date IS 'Day of the change.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_change_headings.heading IS 'One heading of changes.changed_headings.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_change_headings.chapter IS 'Chapter of the change record.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_change_headings.list_names IS 'Names of the lists that reported the change.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_change_headings.file_status IS 'State of the change file.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_change_headings.path IS 'Address of the change file.';
--> statement-breakpoint
COMMENT ON VIEW regwatch.v_coverage_gaps IS 'Each run of uncovered days between the first and the last covered day of a list.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_coverage_gaps.list_key IS 'watch_lists.list_key.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_coverage_gaps.list_name IS 'Name of the list.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_coverage_gaps.gap_start IS 'First uncovered day.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_coverage_gaps.gap_end IS 'Last uncovered day.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_coverage_gaps.gap_days IS 'Days in the gap.';
--> statement-breakpoint
COMMENT ON VIEW regwatch.v_item_failures IS 'Every item whose latest add or remove the registry refused, with the reason in words and whether it is still desired.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_item_failures.list_name IS 'Name of the list.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_item_failures.tax_id IS 'Tax base number.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_item_failures.business_name IS 'Latest known name, when a search returned the business.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_item_failures.op IS 'add or remove.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_item_failures.code IS 'The registry''s item code: 404, 409, 422 or 429.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_item_failures.reason IS 'The code in words.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_item_failures.message IS 'Explanation recorded with the outcome.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_item_failures.at IS 'When the outcome was recorded.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_item_failures.run_id IS 'Run that made the request.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_item_failures.still_desired IS 'The item is still in desired_items, so the reconciler will try again.';
--> statement-breakpoint
COMMENT ON VIEW regwatch.v_api_usage_monthly IS 'Requests per calendar month and interface; compare the search row with REGWATCH_SEARCH_MONTHLY_QUOTA.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_api_usage_monthly.month IS 'Month as YYYY-MM.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_api_usage_monthly.api IS 'Interface: watch, search or files.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_api_usage_monthly.requests IS 'Requests sent, retries included.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_api_usage_monthly.errors IS 'Requests of those that failed.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_api_usage_monthly.active_days IS 'Days of the month with at least one request.';
