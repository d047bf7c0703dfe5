-- One calendar (issue 48, point 10): every day the views, functions and triggers take from a
-- moment (when a search record was read, today for a snooze's end) is a day of the registry's
-- calendar, in its zone (REGWATCH_REGISTRY_TZ, Europe/Budapest by default), whatever the TimeZone
-- of the session that reads them: a record read at 00:30 in Budapest (22:30 or 23:30 UTC the day
-- before) is dated on the Budapest day, for a BI tool in UTC or Los Angeles as for regwatch.
--
-- registry_zone() holds the zone as a constant, so that registry_day() is inlined and folded into
-- each statement (no per-row call, no table a reader must be granted); `regwatch migrate` (and every
-- migration run, the daemon's at start) rewrites it from REGWATCH_REGISTRY_TZ when the two differ
-- (src/db/registry-zone.ts). This migration writes the default.
CREATE OR REPLACE FUNCTION regwatch.registry_zone() RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE AS 'select ''Europe/Budapest''::text';
--> statement-breakpoint
CREATE OR REPLACE FUNCTION regwatch.registry_day(moment timestamptz) RETURNS date
LANGUAGE sql STABLE PARALLEL SAFE AS $$ SELECT (moment AT TIME ZONE regwatch.registry_zone())::date $$;
--> statement-breakpoint
COMMENT ON FUNCTION regwatch.registry_zone() IS 'The registry''s time zone (REGWATCH_REGISTRY_TZ, written by regwatch migrate): the calendar every day the views take from a moment is counted in.';
--> statement-breakpoint
COMMENT ON FUNCTION regwatch.registry_day(timestamptz) IS 'The registry''s day of a moment, in its zone (registry_zone()), whatever the session''s TimeZone. Example: select regwatch.registry_day(fetched_at) from regwatch.businesses.';
--> statement-breakpoint
COMMENT ON SCHEMA regwatch IS 'regwatch: a copy of the business registry''s watch lists, their changes and search results, kept current by the regwatch service. Every day a view or function takes from a moment (when a search record was read; today) is the registry''s day, in its zone (registry_zone(): REGWATCH_REGISTRY_TZ as regwatch migrate last wrote it, Europe/Budapest by default), whatever the reading session''s TimeZone.';
--> statement-breakpoint
-- As in 0006, the end of a snooze compared with the registry's today, not the session's.
CREATE OR REPLACE VIEW regwatch.v_open_alerts AS
SELECT a.id AS alert_id,
       r.name AS rule_name,
       r.channel,
       c.tax_id,
       p.name,
       c.change_date,
       c.changed_headings,
       (SELECT array_agg(DISTINCT coalesce(w.list_name, s.list_key) ORDER BY coalesce(w.list_name, s.list_key))
          FROM regwatch.change_sources s LEFT JOIN regwatch.watch_lists w ON w.list_key = s.list_key
         WHERE s.change_id = c.id) AS lists,
       a.raised_at,
       a.status AS stored_status,
       a.snoozed_until,
       (SELECT CASE WHEN bool_or(d.status = 'dead') THEN 'dead'
                    WHEN bool_or(d.status = 'pending') THEN 'pending'
                    WHEN bool_or(d.status = 'sent') THEN 'sent' END
          FROM regwatch.alert_deliveries d WHERE a.id = ANY (d.alert_ids)) AS delivery
FROM regwatch.alerts a
JOIN regwatch.alert_rules r ON r.id = a.rule_id
JOIN regwatch.changes c ON c.id = a.change_id
LEFT JOIN regwatch.business_profiles p ON p.tax_id = c.tax_id
WHERE a.status = 'open' OR (a.status = 'snoozed' AND a.snoozed_until < regwatch.registry_day(now()));--> statement-breakpoint
-- As in 0029, the day a search record was read is the registry's.
CREATE OR REPLACE VIEW regwatch.v_unread_headings AS
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
    AND (b.fetched_at >= u.first_seen_at OR regwatch.registry_day(b.fetched_at) > l.since + 1)
);
--> statement-breakpoint
-- As in 0016, the days of two reads are the registry's.
CREATE OR REPLACE FUNCTION regwatch.keep_search_bank_accounts() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  listed text[] := regwatch.record_bank_accounts(NEW.record);
  last_list text[];
  last_seen timestamptz;
BEGIN
  IF listed IS NULL THEN
    RETURN NULL;
  END IF;
  SELECT h.bank_accounts, h.seen_at INTO last_list, last_seen
  FROM regwatch.search_bank_accounts h
  WHERE h.tax_id = NEW.tax_id
  ORDER BY h.id DESC LIMIT 1;
  IF last_seen IS NULL OR last_list IS DISTINCT FROM listed OR (
       regwatch.registry_day(NEW.fetched_at) > regwatch.registry_day(last_seen) AND EXISTS (
         SELECT 1 FROM regwatch.change_values cv
         WHERE cv.tax_id = NEW.tax_id AND cv.heading = 'bank_accounts'
           AND cv.change_date >= regwatch.registry_day(last_seen))) THEN
    INSERT INTO regwatch.search_bank_accounts (tax_id, seen_at, bank_accounts)
    VALUES (NEW.tax_id, NEW.fetched_at, listed);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- As in 0016, a search record's day is the registry's (the history's and the cached record's).
CREATE OR REPLACE FUNCTION regwatch.bank_accounts_of_businesses(tax_ids text[])
RETURNS TABLE (tax_id text, bank_account text, first_seen date, last_seen date,
               currently_registered boolean, added_on date, sources text[], added_source text)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
WITH snapshots AS (
  SELECT tax_id, baseline_as_of AS seen_on, 0 AS rank, NULL::integer AS day_order, 0::bigint AS seq,
         NULL::bigint AS change_id, 'baseline' AS source, baseline -> 'bank_accounts' AS accounts,
         false AS ambiguous
  FROM regwatch.business_profiles
  WHERE jsonb_typeof(baseline -> 'bank_accounts') = 'array' AND baseline_as_of IS NOT NULL
    AND (tax_ids IS NULL OR tax_id = ANY (tax_ids))
  UNION ALL
  SELECT tax_id, regwatch.registry_day(seen_at), 1, NULL, id, NULL, 'search', to_jsonb(bank_accounts), false
  FROM regwatch.search_bank_accounts
  WHERE tax_ids IS NULL OR tax_id = ANY (tax_ids)
  UNION ALL
  SELECT tax_id, regwatch.registry_day(fetched_at), 2, NULL, 0, NULL, 'search', to_jsonb(regwatch.record_bank_accounts(record)), false
  FROM regwatch.businesses
  WHERE regwatch.record_bank_accounts(record) IS NOT NULL AND (tax_ids IS NULL OR tax_id = ANY (tax_ids))
  UNION ALL
  SELECT tax_id, (headings -> 'bank_accounts' ->> 'as_of')::date, 3, NULL, 0, NULL, 'profile',
         headings -> 'bank_accounts' -> 'value', false
  FROM regwatch.business_profiles
  WHERE headings -> 'bank_accounts' ->> 'as_of' ~ '^\d{4}-\d{2}-\d{2}$'
    AND jsonb_typeof(headings -> 'bank_accounts' -> 'value') IN ('array', 'object', 'string')
    AND (tax_ids IS NULL OR tax_id = ANY (tax_ids))
  UNION ALL
  SELECT tax_id, change_date, 4, day_order, change_id, change_id, 'change', new_value, order_ambiguous
  FROM regwatch.change_values
  WHERE heading = 'bank_accounts' AND jsonb_typeof(new_value) IN ('array', 'object', 'string')
    AND (tax_ids IS NULL OR tax_id = ANY (tax_ids))
),
listing AS (
  SELECT s.*, regwatch.listed_bank_accounts(s.accounts) AS listed FROM snapshots s
),
ordered AS (
  SELECT l.*,
         lag(l.listed) OVER w AS before,
         row_number() OVER w = count(*) OVER (PARTITION BY l.tax_id) AS newest,
         last_value(l.ambiguous) OVER whole AS newest_ambiguous,
         last_value(l.seen_on) OVER whole AS newest_on
  FROM listing l
  WINDOW w AS (PARTITION BY l.tax_id ORDER BY l.seen_on, l.rank, l.day_order NULLS FIRST, l.seq),
         whole AS (w ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
),
replaced AS (
  SELECT cv.change_id, cv.tax_id, cv.change_date, a AS bank_account
  FROM regwatch.change_values cv
  CROSS JOIN LATERAL unnest(regwatch.listed_bank_accounts(cv.old_value)) a
  WHERE cv.heading = 'bank_accounts' AND (tax_ids IS NULL OR cv.tax_id = ANY (tax_ids))
),
sightings AS (
  -- When the newest day's changes are in no known order, any of their values may be the one
  -- that holds: an account listed by one of them may be current (and the guard holds the
  -- business's payments as unverified until a later record says).
  SELECT o.tax_id, a AS bank_account, o.seen_on, o.source,
         o.newest OR (o.ambiguous AND o.newest_ambiguous AND o.seen_on = o.newest_on) AS current,
         (o.before IS NOT NULL AND NOT (a = ANY (o.before)))
         OR (o.change_id IS NOT NULL AND NOT EXISTS (
           SELECT 1 FROM replaced r WHERE r.change_id = o.change_id AND r.bank_account = a
         )) AS added
  FROM ordered o
  CROSS JOIN LATERAL unnest(o.listed) a
  UNION ALL
  -- A value replaced by a change held until the day before it.
  SELECT tax_id, bank_account, change_date - 1, 'change', false, false
  FROM replaced
)
SELECT g.tax_id,
       g.bank_account,
       min(seen_on) AS first_seen,
       max(seen_on) AS last_seen,
       bool_or(current) AS currently_registered,
       max(seen_on) FILTER (WHERE added) AS added_on,
       array_agg(DISTINCT source ORDER BY source) AS sources,
       (array_agg(source ORDER BY seen_on DESC, source = 'change' DESC) FILTER (WHERE added))[1] AS added_source
FROM sightings g
GROUP BY g.tax_id, g.bank_account
$$;
