-- covers 50 migrations, through 0055_inbox_counts
-- hash f1675f4914bcdb61930f76c312e1b74ec237173662e62fdc1c5a198e45e6a117
-- Schema regwatch as the migrations above build it, written by `npm run db:baseline`
-- (scripts/migration-baseline.ts) from pg_dump; do not edit. A fresh schema is built from it
-- instead of those migrations (src/db/migration-baseline.ts).

CREATE SCHEMA regwatch;

COMMENT ON SCHEMA regwatch IS 'regwatch: a copy of the business registry''s watch lists, their changes and search results, kept current by the regwatch service. Every day a view or function takes from a moment (when a search record was read; today) is the registry''s day, in its zone (registry_zone(): REGWATCH_REGISTRY_TZ as regwatch migrate last wrote it, Europe/Budapest by default), whatever the reading session''s TimeZone.';

CREATE FUNCTION regwatch.alerts_keep_inbox_open_changes() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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

CREATE FUNCTION regwatch.bank_account_list(value jsonb) RETURNS text[]
    LANGUAGE sql IMMUTABLE
    AS $_$
  SELECT coalesce(array_agg(DISTINCT a ORDER BY a), '{}'::text[])
  FROM (
    SELECT btrim(CASE jsonb_typeof(e) WHEN 'object' THEN e ->> 'bank_account' WHEN 'string' THEN e #>> '{}' END) AS a
    FROM jsonb_array_elements(
      CASE jsonb_typeof($1) WHEN 'array' THEN $1 WHEN 'object' THEN jsonb_build_array($1)
        WHEN 'string' THEN jsonb_build_array($1) ELSE '[]'::jsonb END
    ) AS e
  ) x
  WHERE a IS NOT NULL AND a <> ''
$_$;

COMMENT ON FUNCTION regwatch.bank_account_list(value jsonb) IS 'The accounts a bank_accounts value holds, sorted text: accepts arrays of {"bank_account": ...} objects or of strings.';

CREATE FUNCTION regwatch.bank_accounts_of_businesses(tax_ids text[]) RETURNS TABLE(tax_id text, bank_account text, first_seen date, last_seen date, currently_registered boolean, added_on date, sources text[], added_source text)
    LANGUAGE sql STABLE PARALLEL SAFE
    AS $_$
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
$_$;

COMMENT ON FUNCTION regwatch.bank_accounts_of_businesses(tax_ids text[]) IS 'The rows of v_bank_accounts for the given tax base numbers (all when null); payments check reads only its batch''s businesses through it.';

CREATE FUNCTION regwatch.business_as_of(tax_id text, day date) RETURNS jsonb
    LANGUAGE sql STABLE
    AS $_$
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
$_$;

COMMENT ON FUNCTION regwatch.business_as_of(tax_id text, day date) IS 'Each known heading''s value of a business on a day, as {"heading": value}: the value after the last change on or before the day (the day''s last in chained order) or the baseline record if read by then, whichever is newer; else the old value of the first change after the day. A heading whose deciding day has values in no known order is null and listed under "_order_ambiguous"; one whose value would be the old value of a later change whose file did not give it is null and listed under "_unknown" (each key absent when no heading is). Example: select regwatch.business_as_of(''12345678'', ''2024-03-01'').';

CREATE FUNCTION regwatch.canonical_bank_account(value text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $_$
  SELECT CASE
    WHEN value ~ '^\d{8}-\d{8}-\d{8}$' THEN value
    ELSE regexp_replace(
           rpad(substring(translate(upper(value), E' -\t', '') || '00000000'
                          FROM '^(?:HU\d\d)?(\d{16}(?:\d{8})?)00000000$'), 24, '0'),
           '^(\d{8})(\d{8})(\d{8})$', '\1-\2-\3')
  END
$_$;

COMMENT ON FUNCTION regwatch.canonical_bank_account(value text) IS 'A bank account in the one form regwatch compares: 24 digits as xxxxxxxx-xxxxxxxx-xxxxxxxx (16-digit numbers padded with eight zeros, a Hungarian IBAN reduced to its number); null when the value is not 16 or 24 digits.';

CREATE FUNCTION regwatch.changes_keep_inbox_open_changes() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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

CREATE FUNCTION regwatch.keep_search_bank_accounts() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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

COMMENT ON FUNCTION regwatch.keep_search_bank_accounts() IS 'Trigger of businesses: keeps search_bank_accounts, the history of the accounts each business''s record listed.';

CREATE FUNCTION regwatch.listed_bank_accounts(value jsonb) RETURNS text[]
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
  SELECT ARRAY(
    SELECT DISTINCT a FROM (
      SELECT regwatch.canonical_bank_account(CASE jsonb_typeof(e)
               WHEN 'string' THEN e #>> '{}'
               WHEN 'object' THEN e ->> 'bank_account'
             END) AS a
      FROM jsonb_array_elements(CASE jsonb_typeof(value)
        WHEN 'array' THEN value
        WHEN 'object' THEN jsonb_build_array(value)
        WHEN 'string' THEN jsonb_build_array(value)
        ELSE '[]'::jsonb
      END) e
    ) listed
    WHERE a IS NOT NULL
    ORDER BY a)
$$;

COMMENT ON FUNCTION regwatch.listed_bank_accounts(value jsonb) IS 'The canonical accounts a value lists (an array of {"bank_account": ...} objects or strings, or one of either), sorted and without repeats; empty when it lists none.';

CREATE FUNCTION regwatch.record_bank_accounts(record jsonb) RETURNS text[]
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
  SELECT CASE
    WHEN jsonb_typeof(record -> 'bank_accounts') = 'array'
      THEN regwatch.listed_bank_accounts(record -> 'bank_accounts')
    WHEN record ->> 'type' = 'companies' THEN '{}'::text[]
  END
$$;

COMMENT ON FUNCTION regwatch.record_bank_accounts(record jsonb) IS 'The canonical accounts a search record lists; empty for a company''s record without the field, null for other records without it.';

CREATE FUNCTION regwatch.refresh_inbox_open_changes(ids bigint[]) RETURNS void
    LANGUAGE plpgsql
    AS $$
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

CREATE FUNCTION regwatch.registry_day(moment timestamp with time zone) RETURNS date
    LANGUAGE sql STABLE PARALLEL SAFE
    AS $$ SELECT (moment AT TIME ZONE regwatch.registry_zone())::date $$;

COMMENT ON FUNCTION regwatch.registry_day(moment timestamp with time zone) IS 'The registry''s day of a moment, in its zone (registry_zone()), whatever the session''s TimeZone. Example: select regwatch.registry_day(fetched_at) from regwatch.businesses.';

CREATE FUNCTION regwatch.registry_zone() RETURNS text
    LANGUAGE sql STABLE PARALLEL SAFE
    AS $$select 'Europe/Budapest'::text$$;

COMMENT ON FUNCTION regwatch.registry_zone() IS 'The registry''s time zone (REGWATCH_REGISTRY_TZ, written by regwatch migrate): the calendar every day the views take from a moment is counted in.';

CREATE TABLE regwatch.alert_deliveries (
    id bigint NOT NULL,
    message_id text DEFAULT ('msg_'::text || replace((gen_random_uuid())::text, '-'::text, ''::text)) NOT NULL,
    rule_id bigint NOT NULL,
    run_id bigint,
    kind text NOT NULL,
    alert_ids bigint[] NOT NULL,
    channel text NOT NULL,
    target text NOT NULL,
    status text DEFAULT 'pending'::text NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    next_attempt_at timestamp with time zone DEFAULT now() NOT NULL,
    last_attempt_at timestamp with time zone,
    last_status integer,
    last_reply text,
    last_error text,
    payload jsonb,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    sent_at timestamp with time zone,
    tax_ids text[] DEFAULT '{}'::text[] NOT NULL,
    oldest_change date NOT NULL,
    lease_until timestamp with time zone,
    lease_token text,
    recipients jsonb,
    CONSTRAINT alert_deliveries_kind CHECK ((kind = ANY (ARRAY['alert'::text, 'digest'::text]))),
    CONSTRAINT alert_deliveries_status CHECK ((status = ANY (ARRAY['pending'::text, 'sent'::text, 'dead'::text])))
);

COMMENT ON TABLE regwatch.alert_deliveries IS 'Outbox of alert messages: one row per message and target, sent at least once, retried with backoff until sent or dead.';

COMMENT ON COLUMN regwatch.alert_deliveries.id IS 'Generated id of the delivery.';

COMMENT ON COLUMN regwatch.alert_deliveries.message_id IS 'Id of the message (webhook-id header, e-mail Message-ID): the same on every retry, so receivers can drop duplicates.';

COMMENT ON COLUMN regwatch.alert_deliveries.rule_id IS 'The rule whose message this is.';

COMMENT ON COLUMN regwatch.alert_deliveries.run_id IS 'The run whose changes raised the alerts.';

COMMENT ON COLUMN regwatch.alert_deliveries.kind IS 'alert (one alert) or digest (every alert of the rule in one run).';

COMMENT ON COLUMN regwatch.alert_deliveries.alert_ids IS 'The alerts (regwatch.alerts.id) the message reports.';

COMMENT ON COLUMN regwatch.alert_deliveries.channel IS 'webhook, email or notify, copied from the rule.';

COMMENT ON COLUMN regwatch.alert_deliveries.target IS 'URL, address list or NOTIFY channel, copied from the rule.';

COMMENT ON COLUMN regwatch.alert_deliveries.status IS 'pending (to be sent or retried), sent (accepted by the receiver), dead (refused for good or out of attempts).';

COMMENT ON COLUMN regwatch.alert_deliveries.attempts IS 'Attempts made so far.';

COMMENT ON COLUMN regwatch.alert_deliveries.next_attempt_at IS 'When a pending message is due (exponential backoff with jitter, never before a Retry-After).';

COMMENT ON COLUMN regwatch.alert_deliveries.last_attempt_at IS 'When the last attempt was made.';

COMMENT ON COLUMN regwatch.alert_deliveries.last_status IS 'HTTP status of the last webhook attempt, or SMTP reply code of the last e-mail attempt.';

COMMENT ON COLUMN regwatch.alert_deliveries.last_reply IS 'The receiver''s last reply (HTTP status text and start of the body, or the SMTP reply), secrets scrubbed.';

COMMENT ON COLUMN regwatch.alert_deliveries.last_error IS 'Why the last attempt failed, secrets scrubbed; null after a success.';

COMMENT ON COLUMN regwatch.alert_deliveries.payload IS 'The message body, fixed at the first attempt so every retry sends the same content.';

COMMENT ON COLUMN regwatch.alert_deliveries.created_at IS 'When the message was queued (same transaction as its alerts).';

COMMENT ON COLUMN regwatch.alert_deliveries.sent_at IS 'When the receiver accepted the message.';

COMMENT ON COLUMN regwatch.alert_deliveries.tax_ids IS 'Tax base numbers of the businesses the message reports: a message waits while an older one to the same receiver about one of them is pending.';

COMMENT ON COLUMN regwatch.alert_deliveries.oldest_change IS 'Day of the oldest change the message reports: pending messages are sent in this order (then by id), so messages about one business go oldest change first.';

COMMENT ON COLUMN regwatch.alert_deliveries.lease_until IS 'Until when a deliverer holds the message to send it; past this instant the message is due again (its deliverer is presumed dead). Null when nobody holds it.';

COMMENT ON COLUMN regwatch.alert_deliveries.lease_token IS 'Which claim holds the lease: an outcome is recorded only by the claim that still holds the message.';

COMMENT ON COLUMN regwatch.alert_deliveries.recipients IS 'E-mail only: each recipient address with its outcome (sent, or the server''s refusal); a retry goes only to the recipients not yet accepted.';

CREATE SEQUENCE regwatch.alert_deliveries_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE regwatch.alert_deliveries_id_seq OWNED BY regwatch.alert_deliveries.id;

CREATE TABLE regwatch.alert_delivery_health (
    id smallint DEFAULT 1 NOT NULL,
    failures_in_row integer DEFAULT 0 NOT NULL,
    failures_total bigint DEFAULT 0 NOT NULL,
    failing_since timestamp with time zone,
    last_failed_at timestamp with time zone,
    last_error text,
    last_failure_messages integer DEFAULT 0 NOT NULL,
    recovered_at timestamp with time zone,
    CONSTRAINT alert_delivery_health_id_check CHECK ((id = 1))
);

COMMENT ON TABLE regwatch.alert_delivery_health IS 'How alert delivery passes fare: at most one row, written by every pass that fails and by the first pass that attempts a message cleanly after a failure.';

COMMENT ON COLUMN regwatch.alert_delivery_health.id IS 'Always 1: one row per schema.';

COMMENT ON COLUMN regwatch.alert_delivery_health.failures_in_row IS 'Delivery passes failed in a row: ended by a pass that attempts a message without an error of regwatch''s own (or by any pass without one when the last failure charged no message); 0 when delivery works.';

COMMENT ON COLUMN regwatch.alert_delivery_health.failures_total IS 'Delivery passes that ever failed (the counter regwatch_alert_delivery_pass_failures_total).';

COMMENT ON COLUMN regwatch.alert_delivery_health.failing_since IS 'When the current streak of failed passes began (database clock); null when failures_in_row is 0.';

COMMENT ON COLUMN regwatch.alert_delivery_health.last_failed_at IS 'When a delivery pass last failed (database clock).';

COMMENT ON COLUMN regwatch.alert_delivery_health.last_error IS 'The last failed pass''s first error, secrets scrubbed.';

COMMENT ON COLUMN regwatch.alert_delivery_health.last_failure_messages IS 'Messages the last failed pass charged a failed attempt (0: none, e.g. it failed before claiming any).';

COMMENT ON COLUMN regwatch.alert_delivery_health.recovered_at IS 'When the last streak of failed passes ended (database clock).';

CREATE TABLE regwatch.alert_events (
    id bigint NOT NULL,
    rule_id bigint NOT NULL,
    alert_id bigint,
    at timestamp with time zone DEFAULT now() NOT NULL,
    by text NOT NULL,
    action text NOT NULL,
    note text,
    snoozed_until date,
    details jsonb,
    CONSTRAINT alert_events_action CHECK ((action = ANY (ARRAY['acknowledged'::text, 'resolved'::text, 'snoozed'::text, 'reopened'::text, 'commented'::text, 'assigned'::text, 'rule added'::text, 'rule edited'::text, 'rule paused'::text, 'rule resumed'::text, 'rule removed'::text])))
);

COMMENT ON TABLE regwatch.alert_events IS 'The history of alerts and rules: one row per lifecycle action (ack, resolve, snooze, reopen, rule add, edit, pause, resume, remove), never overwritten.';

COMMENT ON COLUMN regwatch.alert_events.id IS 'Generated id; events of one alert or rule in the order they happened.';

COMMENT ON COLUMN regwatch.alert_events.rule_id IS 'The rule acted on, or the rule of the alert acted on.';

COMMENT ON COLUMN regwatch.alert_events.alert_id IS 'The alert acted on; null for an action on the rule itself.';

COMMENT ON COLUMN regwatch.alert_events.at IS 'When the action was taken.';

COMMENT ON COLUMN regwatch.alert_events.by IS 'Who acted (--by, or regwatch for a snooze that ended).';

COMMENT ON COLUMN regwatch.alert_events.action IS 'acknowledged, resolved, snoozed, reopened, or rule added/edited/paused/resumed/removed.';

COMMENT ON COLUMN regwatch.alert_events.note IS 'Why, as the person acting gave it (--note); null when none was given.';

COMMENT ON COLUMN regwatch.alert_events.snoozed_until IS 'Last day of the snooze, for a snoozed event.';

COMMENT ON COLUMN regwatch.alert_events.details IS 'For a rule added or edited: the rule''s settings before and after, as JSON.';

CREATE SEQUENCE regwatch.alert_events_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE regwatch.alert_events_id_seq OWNED BY regwatch.alert_events.id;

CREATE TABLE regwatch.alert_rules (
    id bigint NOT NULL,
    name text NOT NULL,
    lists text[] DEFAULT '{}'::text[] NOT NULL,
    headings text[] DEFAULT '{}'::text[] NOT NULL,
    channel text NOT NULL,
    target text NOT NULL,
    digest boolean DEFAULT false NOT NULL,
    enabled boolean DEFAULT true NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    removed_at timestamp with time zone,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT alert_rules_channel CHECK ((channel = ANY (ARRAY['webhook'::text, 'email'::text, 'notify'::text]))),
    CONSTRAINT alert_rules_removed_disabled CHECK (((removed_at IS NULL) OR (NOT enabled)))
);

COMMENT ON TABLE regwatch.alert_rules IS 'Who is told about which changes, and how: one row per alert rule (regwatch alerts rule add).';

COMMENT ON COLUMN regwatch.alert_rules.id IS 'Generated id of the rule.';

COMMENT ON COLUMN regwatch.alert_rules.name IS 'Unique name operators use for the rule.';

COMMENT ON COLUMN regwatch.alert_rules.lists IS 'Watch list names (or keys) whose changes the rule covers; empty means every list. A listed rule fires when one of its lists reports a change for the first time after the rule was created, whichever list stored the change first.';

COMMENT ON COLUMN regwatch.alert_rules.headings IS 'Headings the rule covers (a change matches when any of its changed headings is listed); empty means every heading.';

COMMENT ON COLUMN regwatch.alert_rules.channel IS 'How alerts are sent: webhook (signed POST), email (SMTP) or notify (Postgres pg_notify).';

COMMENT ON COLUMN regwatch.alert_rules.target IS 'Webhook URL, e-mail address list (comma-separated) or NOTIFY channel name. Never a secret: the webhook secret and SMTP password come from the environment.';

COMMENT ON COLUMN regwatch.alert_rules.digest IS 'True: one message per run listing every alert of the rule; false: one message per alert.';

COMMENT ON COLUMN regwatch.alert_rules.enabled IS 'A disabled rule raises no new alerts.';

COMMENT ON COLUMN regwatch.alert_rules.created_at IS 'When the rule was created: a rule covering every list raises alerts for changes first stored after it; a rule limited to lists for changes one of its lists first reports after it.';

COMMENT ON COLUMN regwatch.alert_rules.removed_at IS 'When the rule was removed (regwatch alerts rule remove); null while it is in use. A removed rule raises nothing; its alerts and their history stay.';

COMMENT ON COLUMN regwatch.alert_rules.updated_at IS 'When the rule was last added, edited, paused, resumed or removed.';

CREATE SEQUENCE regwatch.alert_rules_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE regwatch.alert_rules_id_seq OWNED BY regwatch.alert_rules.id;

CREATE TABLE regwatch.alert_scans (
    run_id bigint NOT NULL,
    raised integer NOT NULL,
    last_change_id bigint NOT NULL,
    scanned_at timestamp with time zone DEFAULT now() NOT NULL,
    queued integer DEFAULT 0 NOT NULL
);

COMMENT ON TABLE regwatch.alert_scans IS 'Durable cursor of alert raising: a sync or backfill run is listed once the alerts for the changes it first stored have been raised (in the same transaction), so a crash between a run''s commit and raising loses nothing.';

COMMENT ON COLUMN regwatch.alert_scans.run_id IS 'The scanned run (regwatch.runs.id).';

COMMENT ON COLUMN regwatch.alert_scans.raised IS 'Alerts raised for the run.';

COMMENT ON COLUMN regwatch.alert_scans.last_change_id IS 'Cursor over regwatch.changes.id: the highest change id scanned so far (runs write changes one at a time, under the run lock, so each run''s new changes lie above the previous run''s).';

COMMENT ON COLUMN regwatch.alert_scans.scanned_at IS 'When the run was scanned.';

COMMENT ON COLUMN regwatch.alert_scans.queued IS 'Messages the scan queued for delivery (one per alert, one per digest rule).';

CREATE TABLE regwatch.alerts (
    id bigint NOT NULL,
    rule_id bigint NOT NULL,
    change_id bigint NOT NULL,
    run_id bigint,
    status text DEFAULT 'open'::text NOT NULL,
    snoozed_until date,
    status_by text,
    status_note text,
    status_at timestamp with time zone,
    raised_at timestamp with time zone DEFAULT now() NOT NULL,
    assigned_to text,
    CONSTRAINT alerts_snooze_date CHECK (((status <> 'snoozed'::text) OR (snoozed_until IS NOT NULL))),
    CONSTRAINT alerts_status CHECK ((status = ANY (ARRAY['open'::text, 'acknowledged'::text, 'resolved'::text, 'snoozed'::text])))
);

COMMENT ON TABLE regwatch.alerts IS 'One alert per (rule, change): a change reported by several lists is one alert. Raised by a sync (or a backfill run with --alert-history) for changes first stored after the rule was created, or, for a rule limited to lists, first reported by one of its lists after it.';

COMMENT ON COLUMN regwatch.alerts.id IS 'Generated id of the alert, used by alerts ack/resolve/snooze and in every message.';

COMMENT ON COLUMN regwatch.alerts.rule_id IS 'The rule that raised the alert (regwatch.alert_rules.id); removing the rule removes its alerts.';

COMMENT ON COLUMN regwatch.alerts.change_id IS 'The change the alert is about (regwatch.changes.id).';

COMMENT ON COLUMN regwatch.alerts.run_id IS 'The sync or backfill run that first stored the change, or in which one of the rule''s lists first reported it (regwatch.runs.id).';

COMMENT ON COLUMN regwatch.alerts.status IS 'Lifecycle: open, acknowledged, resolved, or snoozed (reopens after snoozed_until).';

COMMENT ON COLUMN regwatch.alerts.snoozed_until IS 'Last day of a snooze; the alert is open again from the day after.';

COMMENT ON COLUMN regwatch.alerts.status_by IS 'Who set the current status (--by), or regwatch when a snooze ended.';

COMMENT ON COLUMN regwatch.alerts.status_note IS 'Why the status was set (--note).';

COMMENT ON COLUMN regwatch.alerts.status_at IS 'When the current status was set; null while the alert is as raised.';

COMMENT ON COLUMN regwatch.alerts.raised_at IS 'When the alert was raised.';

COMMENT ON COLUMN regwatch.alerts.assigned_to IS 'The console user the alert is assigned to (name), null when nobody; each assignment is an alert_events row (assigned).';

CREATE SEQUENCE regwatch.alerts_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE regwatch.alerts_id_seq OWNED BY regwatch.alerts.id;

CREATE TABLE regwatch.api_usage (
    day date NOT NULL,
    api text NOT NULL,
    endpoint text NOT NULL,
    requests integer DEFAULT 0 NOT NULL,
    errors integer DEFAULT 0 NOT NULL
);

COMMENT ON TABLE regwatch.api_usage IS 'Requests made to the registry per day, interface and endpoint; the search quota is counted from it.';

COMMENT ON COLUMN regwatch.api_usage.day IS 'Day of the requests, in REGWATCH_TZ.';

COMMENT ON COLUMN regwatch.api_usage.api IS 'Interface: watch, search or files.';

COMMENT ON COLUMN regwatch.api_usage.endpoint IS 'Method and path pattern, e.g. GET /v1/names.';

COMMENT ON COLUMN regwatch.api_usage.requests IS 'Requests sent, retries included.';

COMMENT ON COLUMN regwatch.api_usage.errors IS 'Requests of those that failed.';

CREATE TABLE regwatch.business_profiles (
    tax_id text NOT NULL,
    name text,
    name_as_of date,
    name_source text,
    type text,
    registration_number text,
    status_code integer,
    status_as_of date,
    seat text,
    headings jsonb DEFAULT '{}'::jsonb NOT NULL,
    baseline jsonb,
    baseline_as_of date,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);

COMMENT ON TABLE regwatch.business_profiles IS 'The latest known facts of each business, from search records, operators and parsed change files; each heading value with the date and source it came from.';

COMMENT ON COLUMN regwatch.business_profiles.tax_id IS 'Tax base number (8 digits).';

COMMENT ON COLUMN regwatch.business_profiles.name IS 'Best known name: the newest of a changed name, a search record''s full name, or a name an operator gave.';

COMMENT ON COLUMN regwatch.business_profiles.name_as_of IS 'Date the name is known to hold from (change date, or the day the record was read).';

COMMENT ON COLUMN regwatch.business_profiles.name_source IS 'Where the name came from: search, operator or change_file.';

COMMENT ON COLUMN regwatch.business_profiles.type IS 'Business type (companies, self_employed, budget_orgs, civil_orgs).';

COMMENT ON COLUMN regwatch.business_profiles.registration_number IS 'Registration number as the registry writes it.';

COMMENT ON COLUMN regwatch.business_profiles.status_code IS 'Status as received: 0 ceased, 1 operating, 2 suspended.';

COMMENT ON COLUMN regwatch.business_profiles.status_as_of IS 'Date the status is known to hold from.';

COMMENT ON COLUMN regwatch.business_profiles.seat IS 'Registered seat (address).';

COMMENT ON COLUMN regwatch.business_profiles.headings IS 'Every known heading: {"<heading>": {"value": ..., "as_of": "YYYY-MM-DD", "source": "search|operator|change_file"}}. A heading whose values on its last day cannot be ordered has "value": null, "order_ambiguous": true and the "candidates" it may hold. Change-file values dated after the last complete day are never taken.';

COMMENT ON COLUMN regwatch.business_profiles.baseline IS 'The search record the business was first known by; business_as_of applies change values to it.';

COMMENT ON COLUMN regwatch.business_profiles.baseline_as_of IS 'Day the baseline record was read.';

COMMENT ON COLUMN regwatch.business_profiles.updated_at IS 'When the profile was last written.';

CREATE TABLE regwatch.businesses (
    tax_id text NOT NULL,
    type text,
    status_code integer,
    full_name text,
    short_name text,
    address text,
    tax_number text,
    registration_number text,
    record jsonb NOT NULL,
    records jsonb DEFAULT '[]'::jsonb NOT NULL,
    fetched_at timestamp with time zone DEFAULT now() NOT NULL
);

COMMENT ON TABLE regwatch.businesses IS 'Search results kept by regwatch lookup and regwatch watch, one row per tax base number.';

COMMENT ON COLUMN regwatch.businesses.tax_id IS 'Tax base number: the first 8 digits of tax_number.';

COMMENT ON COLUMN regwatch.businesses.type IS 'Kind of business: companies, self_employed (sole proprietor), budget_orgs, civil_orgs.';

COMMENT ON COLUMN regwatch.businesses.status_code IS 'As received: 0 ceased, 1 operating, 2 suspended (sole proprietors only).';

COMMENT ON COLUMN regwatch.businesses.full_name IS 'Full name of the business.';

COMMENT ON COLUMN regwatch.businesses.short_name IS 'Short name (companies and civil organisations).';

COMMENT ON COLUMN regwatch.businesses.address IS 'Registered seat.';

COMMENT ON COLUMN regwatch.businesses.tax_number IS 'Full tax number, xxxxxxxx-y-zz.';

COMMENT ON COLUMN regwatch.businesses.registration_number IS 'Registration number; its format depends on the kind of business.';

COMMENT ON COLUMN regwatch.businesses.record IS 'The newest business of this tax base number, as the search returned it.';

COMMENT ON COLUMN regwatch.businesses.records IS 'Every business known for the number, newest first: two when it changed business type.';

COMMENT ON COLUMN regwatch.businesses.fetched_at IS 'When the search last returned the business.';

CREATE TABLE regwatch.change_files (
    path text NOT NULL,
    status text DEFAULT 'pending'::text NOT NULL,
    http_status integer,
    content_type text,
    sha256 text,
    size_bytes bigint,
    body_json jsonb,
    body_bytes bytea,
    attempts integer DEFAULT 0 NOT NULL,
    last_error text,
    first_seen_at timestamp with time zone DEFAULT now() NOT NULL,
    fetched_at timestamp with time zone,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    parse_status text,
    parser text,
    parse_error text,
    parsed_at timestamp with time zone,
    change_ids bigint[] DEFAULT '{}'::bigint[] NOT NULL,
    newest_change date,
    failed_for_good boolean DEFAULT false NOT NULL,
    body_removed_on date,
    CONSTRAINT change_files_parse_status CHECK (((parse_status IS NULL) OR (parse_status = ANY (ARRAY['parsed'::text, 'unrecognised'::text, 'failed'::text, 'unattributed'::text])))),
    CONSTRAINT change_files_status CHECK ((status = ANY (ARRAY['pending'::text, 'fetched'::text, 'failed'::text, 'refused'::text, 'skipped'::text])))
);

COMMENT ON TABLE regwatch.change_files IS 'The files changes point to, one row per distinct path, with their download state and content.';

COMMENT ON COLUMN regwatch.change_files.path IS 'Address of the file, as given in the change.';

COMMENT ON COLUMN regwatch.change_files.status IS 'pending (not fetched yet), fetched, failed (retried by later syncs unless failed_for_good), refused (address outside REGWATCH_FILE_ORIGINS, never fetched), skipped (left out by REGWATCH_FETCH_FILES; fetched once the policy includes it).';

COMMENT ON COLUMN regwatch.change_files.http_status IS 'HTTP status of the last download attempt.';

COMMENT ON COLUMN regwatch.change_files.content_type IS 'Content-Type the file was served with.';

COMMENT ON COLUMN regwatch.change_files.sha256 IS 'SHA-256 of the body, hex.';

COMMENT ON COLUMN regwatch.change_files.size_bytes IS 'Size of the body in bytes.';

COMMENT ON COLUMN regwatch.change_files.body_json IS 'The body when it is JSON.';

COMMENT ON COLUMN regwatch.change_files.body_bytes IS 'The body when it is not JSON.';

COMMENT ON COLUMN regwatch.change_files.attempts IS 'Download attempts so far.';

COMMENT ON COLUMN regwatch.change_files.last_error IS 'Why the last attempt failed, or why the path was refused.';

COMMENT ON COLUMN regwatch.change_files.first_seen_at IS 'When a change first pointed to the file.';

COMMENT ON COLUMN regwatch.change_files.fetched_at IS 'When the file was downloaded.';

COMMENT ON COLUMN regwatch.change_files.updated_at IS 'When the row last changed.';

COMMENT ON COLUMN regwatch.change_files.parse_status IS 'Null until the fetched body is parsed; parsed (values in change_values), unrecognised (no parser knows the body, kept untouched), unattributed (read, but some change pointing at the file got no value for a heading it lists: see parse_error; values that could be attributed are kept) or failed (see parse_error).';

COMMENT ON COLUMN regwatch.change_files.parser IS 'Name of the parser that read the body.';

COMMENT ON COLUMN regwatch.change_files.parse_error IS 'Why the body was unrecognised, unattributed or failed to parse.';

COMMENT ON COLUMN regwatch.change_files.parsed_at IS 'When the body was last parsed (regwatch reparse parses again).';

COMMENT ON COLUMN regwatch.change_files.change_ids IS 'The changes that point to the file (changes.id), in the order they were stored.';

COMMENT ON COLUMN regwatch.change_files.newest_change IS 'Day of the newest change that points to the file; files are fetched newest first.';

COMMENT ON COLUMN regwatch.change_files.failed_for_good IS 'With status failed: the database refuses the body whatever the try (too deep, out of range, a character it cannot store); the body is kept in body_bytes, the reason in last_error; no sync tries it again, only reparse or backfill --refetch.';

COMMENT ON COLUMN regwatch.change_files.body_removed_on IS 'The day the retention policy removed the parsed body; its values stay in change_values, reparse skips the file.';

CREATE TABLE regwatch.change_sources (
    change_id bigint NOT NULL,
    list_key text NOT NULL,
    first_seen_at timestamp with time zone DEFAULT now() NOT NULL
);

COMMENT ON TABLE regwatch.change_sources IS 'Which lists reported each change (a business on two lists is reported by both).';

COMMENT ON COLUMN regwatch.change_sources.change_id IS 'The change (changes.id).';

COMMENT ON COLUMN regwatch.change_sources.list_key IS 'A list that reported it (watch_lists.list_key).';

COMMENT ON COLUMN regwatch.change_sources.first_seen_at IS 'When the list first reported the change.';

CREATE TABLE regwatch.change_values (
    change_id bigint NOT NULL,
    heading text NOT NULL,
    tax_id text NOT NULL,
    change_date date NOT NULL,
    old_value jsonb,
    new_value jsonb,
    path text NOT NULL,
    parsed_at timestamp with time zone DEFAULT now() NOT NULL,
    day_order integer,
    order_ambiguous boolean DEFAULT false NOT NULL,
    file_order_ambiguous boolean DEFAULT false NOT NULL,
    old_value_known boolean DEFAULT true NOT NULL
);

COMMENT ON TABLE regwatch.change_values IS 'What changed: one row per changed heading of a change, with its old and new value, parsed from the change file. Only entries naming the change''s business (and chapter, when they name one) give values, and only for headings the change lists; a heading given several times in one file nets to its first old and last new value when the values chain.';

COMMENT ON COLUMN regwatch.change_values.change_id IS 'The change (regwatch.changes.id) the values belong to.';

COMMENT ON COLUMN regwatch.change_values.heading IS 'Name of the register heading that changed (e.g. long_name, bank_accounts).';

COMMENT ON COLUMN regwatch.change_values.tax_id IS 'Tax base number of the business (8 digits), copied from the change.';

COMMENT ON COLUMN regwatch.change_values.change_date IS 'Date of the change, copied from the change.';

COMMENT ON COLUMN regwatch.change_values.old_value IS 'Value before the change, any JSON type; null for a first registration, or when old_value_known is false (the file did not say).';

COMMENT ON COLUMN regwatch.change_values.new_value IS 'Value after the change, any JSON type; null when the heading was removed.';

COMMENT ON COLUMN regwatch.change_values.path IS 'The change file the values were read from (regwatch.change_files.path).';

COMMENT ON COLUMN regwatch.change_values.parsed_at IS 'When the file was parsed into these values.';

COMMENT ON COLUMN regwatch.change_values.day_order IS 'Position of this value among the same business''s values of the heading on the same day (1 = first), decided by chaining old and new values; null when the order is ambiguous.';

COMMENT ON COLUMN regwatch.change_values.order_ambiguous IS 'True when the business has several values of this heading on this day and no chain of old and new values decides their order (or one file''s values of it do not chain, see file_order_ambiguous): the value after that day is not known.';

COMMENT ON COLUMN regwatch.change_values.file_order_ambiguous IS 'True when the change file gave this heading more than once for the change and the values do not chain into one order: old_value and new_value are then the first and last in file order, not known to be the net change (order_ambiguous is true as well).';

COMMENT ON COLUMN regwatch.change_values.old_value_known IS 'False when the change file''s entry gave no old_value: old_value is then null but not known to be null (nothing before, or a value the file did not say).';

CREATE TABLE regwatch.changes (
    id bigint NOT NULL,
    tax_id text NOT NULL,
    change_date date NOT NULL,
    chapter text NOT NULL,
    path text NOT NULL,
    changed_headings text[] DEFAULT '{}'::text[] NOT NULL,
    raw jsonb NOT NULL,
    first_seen_at timestamp with time zone DEFAULT now() NOT NULL,
    last_seen_at timestamp with time zone DEFAULT now() NOT NULL
);

COMMENT ON TABLE regwatch.changes IS 'One row per distinct change of a watched business, whichever list or interval reported it.';

COMMENT ON COLUMN regwatch.changes.id IS 'Surrogate key, referenced by change_sources.';

COMMENT ON COLUMN regwatch.changes.tax_id IS 'Tax base number of the business that changed.';

COMMENT ON COLUMN regwatch.changes.change_date IS 'Day of the change.';

COMMENT ON COLUMN regwatch.changes.chapter IS 'Chapter of the change record, as the registry names it.';

COMMENT ON COLUMN regwatch.changes.path IS 'Address of the file holding the change data (change_files.path).';

COMMENT ON COLUMN regwatch.changes.changed_headings IS 'Registry headings that changed, e.g. long_name, bank_accounts; the full set of values is not documented.';

COMMENT ON COLUMN regwatch.changes.raw IS 'The fields of the change as received that the columns above do not hold (fields the registry''s document does not name; a named field only when its received form differs, e.g. a numeric chapter); {} when none. v_changes.raw is the whole item.';

COMMENT ON COLUMN regwatch.changes.first_seen_at IS 'When regwatch first stored the change.';

COMMENT ON COLUMN regwatch.changes.last_seen_at IS 'When the row last changed: first stored, or a re-read that brought different headings or fields. A re-read that brings nothing new writes nothing; when the change''s days were last read is coverage.fetched_at.';

CREATE SEQUENCE regwatch.changes_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE regwatch.changes_id_seq OWNED BY regwatch.changes.id;

CREATE TABLE regwatch.console_login_addresses (
    user_id bigint NOT NULL,
    address text NOT NULL,
    last_at timestamp with time zone DEFAULT now() NOT NULL
);

COMMENT ON TABLE regwatch.console_login_addresses IS 'Addresses each console user signed in from, spared by the sign-in limits across names and addresses; rows older than 90 days are pruned.';

COMMENT ON COLUMN regwatch.console_login_addresses.user_id IS 'The user who signed in.';

COMMENT ON COLUMN regwatch.console_login_addresses.address IS 'The address they signed in from.';

COMMENT ON COLUMN regwatch.console_login_addresses.last_at IS 'When they last signed in from it (database clock).';

CREATE TABLE regwatch.console_login_failures (
    id bigint NOT NULL,
    username text NOT NULL,
    address text NOT NULL,
    at timestamp with time zone DEFAULT now() NOT NULL
);

COMMENT ON TABLE regwatch.console_login_failures IS 'Failed console sign-ins (and ones still being checked), for the limits per user name and address, per address and per name; rows older than an hour are pruned.';

COMMENT ON COLUMN regwatch.console_login_failures.id IS 'Generated id.';

COMMENT ON COLUMN regwatch.console_login_failures.username IS 'The user name tried (the password tried is never kept).';

COMMENT ON COLUMN regwatch.console_login_failures.address IS 'The address the attempt came from.';

COMMENT ON COLUMN regwatch.console_login_failures.at IS 'When the attempt was counted (database clock).';

CREATE SEQUENCE regwatch.console_login_failures_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE regwatch.console_login_failures_id_seq OWNED BY regwatch.console_login_failures.id;

CREATE TABLE regwatch.console_oidc_logins (
    id text NOT NULL,
    state text NOT NULL,
    nonce text NOT NULL,
    code_verifier text NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    address text DEFAULT ''::text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

COMMENT ON TABLE regwatch.console_oidc_logins IS 'Company sign-ins under way (redirected to the identity provider, callback not yet back); each row is used once.';

COMMENT ON COLUMN regwatch.console_oidc_logins.id IS 'SHA-256 (hex) of the random token in the browser''s pending sign-in cookie; the token itself is never stored.';

COMMENT ON COLUMN regwatch.console_oidc_logins.state IS 'The state sent to the provider; the callback must bring it back.';

COMMENT ON COLUMN regwatch.console_oidc_logins.nonce IS 'The nonce the ID token must carry.';

COMMENT ON COLUMN regwatch.console_oidc_logins.code_verifier IS 'PKCE code verifier of this sign-in, sent with the code once.';

COMMENT ON COLUMN regwatch.console_oidc_logins.expires_at IS 'When the sign-in under way lapses (ten minutes after it began).';

COMMENT ON COLUMN regwatch.console_oidc_logins.address IS 'Client address that started the sign-in; counted by the start limit per address.';

COMMENT ON COLUMN regwatch.console_oidc_logins.created_at IS 'When the sign-in began, on the database''s clock.';

CREATE TABLE regwatch.console_sessions (
    id text NOT NULL,
    user_id bigint NOT NULL,
    csrf_token text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    last_seen_at timestamp with time zone DEFAULT now() NOT NULL,
    current_account text
);

COMMENT ON TABLE regwatch.console_sessions IS 'Signed-in console sessions; a row removed (sign-out, password change, user removed) or expired ends the session.';

COMMENT ON COLUMN regwatch.console_sessions.id IS 'SHA-256 (hex) of the random token in the session cookie; the token itself is never stored.';

COMMENT ON COLUMN regwatch.console_sessions.user_id IS 'The signed-in user (regwatch.console_users.id).';

COMMENT ON COLUMN regwatch.console_sessions.csrf_token IS 'Token every form of the session posts back as _csrf; a POST without it changes nothing.';

COMMENT ON COLUMN regwatch.console_sessions.created_at IS 'When the user signed in.';

COMMENT ON COLUMN regwatch.console_sessions.expires_at IS 'When the session ends (REGWATCH_WEB_SESSION_HOURS after sign-in).';

COMMENT ON COLUMN regwatch.console_sessions.last_seen_at IS 'Last request of the session (updated at most once a minute).';

COMMENT ON COLUMN regwatch.console_sessions.current_account IS 'Account the session shows (POST /account switches it); null shows the first account the user has; unused without an accounts file.';

CREATE TABLE regwatch.console_user_accounts (
    user_id bigint NOT NULL,
    account text NOT NULL,
    granted_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT console_user_accounts_account_shape CHECK ((account ~ '^[a-z][a-z0-9_]{0,29}$'::text))
);

COMMENT ON TABLE regwatch.console_user_accounts IS 'Accounts of the accounts file each console user may see (regwatch users add --account, grant, revoke); used in the fleet home schema only.';

COMMENT ON COLUMN regwatch.console_user_accounts.user_id IS 'The user (regwatch.console_users.id); removing the user removes the rows.';

COMMENT ON COLUMN regwatch.console_user_accounts.account IS 'Name of an account in the accounts file; its data lives in schema regwatch_<account>.';

COMMENT ON COLUMN regwatch.console_user_accounts.granted_at IS 'When the account was given to the user.';

CREATE TABLE regwatch.console_users (
    id bigint NOT NULL,
    name text NOT NULL,
    role text NOT NULL,
    password_hash text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    locale text,
    external_subject text,
    CONSTRAINT console_users_locale CHECK ((locale = ANY (ARRAY['en'::text, 'hu'::text]))),
    CONSTRAINT console_users_name_shape CHECK ((name ~ '^[A-Za-z0-9._@À-ÖØ-öø-ɏḀ-ỿ-]{1,64}$'::text)),
    CONSTRAINT console_users_role CHECK ((role = ANY (ARRAY['reader'::text, 'reviewer'::text, 'admin'::text])))
);

COMMENT ON TABLE regwatch.console_users IS 'People who may sign in to the web console (regwatch users add/list/passwd/remove), with their role.';

COMMENT ON COLUMN regwatch.console_users.id IS 'Generated id of the user.';

COMMENT ON COLUMN regwatch.console_users.name IS 'Sign-in name, unique; also the name written as who acted in alert_events.';

COMMENT ON COLUMN regwatch.console_users.role IS 'reader (reads), reviewer (also acts on alerts and payees), admin (also manages rules and users).';

COMMENT ON COLUMN regwatch.console_users.password_hash IS 'scrypt hash of the password as scrypt$N$r$p$salt$hash (base64url); the password itself is never stored.';

COMMENT ON COLUMN regwatch.console_users.created_at IS 'When the user was added.';

COMMENT ON COLUMN regwatch.console_users.updated_at IS 'When the role or password last changed.';

COMMENT ON COLUMN regwatch.console_users.locale IS 'The language the console speaks to the user (en or hu); NULL: the browser''s Accept-Language, else REGWATCH_LOCALE.';

COMMENT ON COLUMN regwatch.console_users.external_subject IS 'Company sign-in: "<issuer> <sub>" of the person (OpenID Connect); null for a local user with a password.';

CREATE SEQUENCE regwatch.console_users_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE regwatch.console_users_id_seq OWNED BY regwatch.console_users.id;

CREATE TABLE regwatch.coverage (
    list_key text NOT NULL,
    start_date date NOT NULL,
    end_date date NOT NULL,
    requested_start date,
    requested_end date,
    change_count integer DEFAULT 0 NOT NULL,
    run_id bigint,
    fetched_at timestamp with time zone DEFAULT now() NOT NULL,
    accepted_reason text,
    CONSTRAINT coverage_order CHECK ((start_date <= end_date))
);

COMMENT ON TABLE regwatch.coverage IS 'Intervals of changes fetched per list, as the registry reported them returned. Days not covered by any row are gaps.';

COMMENT ON COLUMN regwatch.coverage.list_key IS 'List the interval was fetched for (watch_lists.list_key).';

COMMENT ON COLUMN regwatch.coverage.start_date IS 'First day of the interval the registry says it returned.';

COMMENT ON COLUMN regwatch.coverage.end_date IS 'Last day of the interval the registry says it returned.';

COMMENT ON COLUMN regwatch.coverage.requested_start IS 'First day regwatch asked for; may differ from start_date.';

COMMENT ON COLUMN regwatch.coverage.requested_end IS 'Last day regwatch asked for; may differ from end_date.';

COMMENT ON COLUMN regwatch.coverage.change_count IS 'Number of changes the response held.';

COMMENT ON COLUMN regwatch.coverage.run_id IS 'Run that fetched the interval (runs.id).';

COMMENT ON COLUMN regwatch.coverage.fetched_at IS 'When the interval was fetched.';

COMMENT ON COLUMN regwatch.coverage.accepted_reason IS 'Set when an operator marked these days covered with coverage accept: the reason given; null for days read from the registry.';

CREATE TABLE regwatch.desired_items (
    list_name text NOT NULL,
    tax_id text NOT NULL,
    source text,
    note text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    adopted_on date,
    adopted_from text
);

COMMENT ON TABLE regwatch.desired_items IS 'What should be watched, per list. Written by operators (regwatch watch), BI tools and other systems; read by the reconciler.';

COMMENT ON COLUMN regwatch.desired_items.list_name IS 'Desired list the item belongs to (desired_lists.list_name).';

COMMENT ON COLUMN regwatch.desired_items.tax_id IS 'Tax base number to watch: 8 digits, the last a check digit.';

COMMENT ON COLUMN regwatch.desired_items.source IS 'Who wrote the row: cli (regwatch watch add), import (regwatch watch import), or a name chosen by another writer.';

COMMENT ON COLUMN regwatch.desired_items.note IS 'Free text from whoever added the item.';

COMMENT ON COLUMN regwatch.desired_items.created_at IS 'When the item was added.';

COMMENT ON COLUMN regwatch.desired_items.adopted_on IS 'Day reconcile adopted the item from a remote list it started to manage (the item was already there); null for items someone asked for.';

COMMENT ON COLUMN regwatch.desired_items.adopted_from IS 'Key of the remote list the item was adopted from (watch_lists.list_key); null unless adopted.';

CREATE TABLE regwatch.desired_lists (
    list_name text NOT NULL,
    prune boolean DEFAULT true NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);

COMMENT ON TABLE regwatch.desired_lists IS 'Lists whose contents regwatch manages: the reconciler makes the remote list of this name match desired_items.';

COMMENT ON COLUMN regwatch.desired_lists.list_name IS 'Name of the remote list; created there by the reconciler when missing.';

COMMENT ON COLUMN regwatch.desired_lists.prune IS 'When true, remote items not in desired_items are removed from the list.';

COMMENT ON COLUMN regwatch.desired_lists.created_at IS 'When the row was created.';

COMMENT ON COLUMN regwatch.desired_lists.updated_at IS 'When prune was last changed.';

CREATE TABLE regwatch.dropped_lists (
    list_name text NOT NULL,
    list_key text,
    items integer DEFAULT 0 NOT NULL,
    dropped_at timestamp with time zone DEFAULT now() NOT NULL,
    deleted_at timestamp with time zone
);

COMMENT ON TABLE regwatch.dropped_lists IS 'Desired lists dropped by regwatch watch drop-list. reconcile --allow-delete-lists deletes the remote list of each row not deleted yet (and not desired again); without it the remote list is left in place. Lists never named here or in desired_lists are never deleted.';

COMMENT ON COLUMN regwatch.dropped_lists.list_name IS 'Name of the dropped desired list.';

COMMENT ON COLUMN regwatch.dropped_lists.list_key IS 'Key of the remote list reconcile used for it when it was dropped; null when none was known (reconcile then picks by name, as it did while the list was desired).';

COMMENT ON COLUMN regwatch.dropped_lists.items IS 'Desired items the list had when it was dropped.';

COMMENT ON COLUMN regwatch.dropped_lists.dropped_at IS 'When the list was dropped.';

COMMENT ON COLUMN regwatch.dropped_lists.deleted_at IS 'When reconcile deleted the remote list (or found it gone); null while it is still to be deleted.';

CREATE TABLE regwatch.given_names (
    tax_id text NOT NULL,
    source text NOT NULL,
    name text NOT NULL,
    given_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT given_names_name CHECK (((btrim(name) <> ''::text) AND (length(name) <= 500))),
    CONSTRAINT given_names_source CHECK (((source ~ '^(file|user) .'::text) OR (source = 'earlier'::text))),
    CONSTRAINT given_names_tax_id CHECK ((tax_id ~ '^[0-9]{8}$'::text))
);

COMMENT ON TABLE regwatch.given_names IS 'Names people and files gave businesses (watch import, watch add --name), with where each came from; shown, marked as given, until the registry names the business.';

COMMENT ON COLUMN regwatch.given_names.tax_id IS 'Tax base number of the business named.';

COMMENT ON COLUMN regwatch.given_names.source IS 'Where the name came from: `file <file name>` (watch import), `user <who>` (watch add --name), or `earlier` (given before sources were kept).';

COMMENT ON COLUMN regwatch.given_names.name IS 'The name as given (trimmed, at most 500 characters).';

COMMENT ON COLUMN regwatch.given_names.given_at IS 'When the name was given (the latest time this source gave it).';

CREATE TABLE regwatch.held_uploads (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    file_name text NOT NULL,
    body bytea NOT NULL,
    options jsonb NOT NULL,
    held_by text NOT NULL,
    held_at timestamp with time zone DEFAULT now() NOT NULL
);

COMMENT ON TABLE regwatch.held_uploads IS 'Uploaded payment files waiting for their uploader to say which column is which; deleted when checked, and after a day.';

COMMENT ON COLUMN regwatch.held_uploads.id IS 'Random id the column form carries.';

COMMENT ON COLUMN regwatch.held_uploads.file_name IS 'The name the file was uploaded under.';

COMMENT ON COLUMN regwatch.held_uploads.body IS 'The file as uploaded.';

COMMENT ON COLUMN regwatch.held_uploads.options IS 'The upload form''s options (hold days, encoding, currency, online).';

COMMENT ON COLUMN regwatch.held_uploads.held_by IS 'The console user who uploaded it; only they may check it.';

COMMENT ON COLUMN regwatch.held_uploads.held_at IS 'When it was uploaded.';

CREATE TABLE regwatch.inbox_open_changes (
    change_id bigint NOT NULL,
    open_alerts integer NOT NULL,
    newest_raised_at timestamp with time zone,
    high boolean NOT NULL,
    bank_accounts boolean NOT NULL
);

COMMENT ON TABLE regwatch.inbox_open_changes IS 'One row per change with an open alert, for the console inbox''s count cards: how many open alerts, when the newest was raised, whether the change is high or of a bank account. Kept by triggers on alerts, change_values and changes. Example: select count(*) filter (where high) from regwatch.inbox_open_changes.';

COMMENT ON COLUMN regwatch.inbox_open_changes.change_id IS 'The change (changes.id) whose open alerts this row counts.';

COMMENT ON COLUMN regwatch.inbox_open_changes.open_alerts IS 'How many of the change''s alerts are open now.';

COMMENT ON COLUMN regwatch.inbox_open_changes.newest_raised_at IS 'When the newest of those open alerts was raised.';

COMMENT ON COLUMN regwatch.inbox_open_changes.high IS 'Whether the change touches a heading the console counts as high (the high card''s filter).';

COMMENT ON COLUMN regwatch.inbox_open_changes.bank_accounts IS 'Whether the change touches the business''s bank accounts (the bank-account card''s filter).';

CREATE TABLE regwatch.invalid_items (
    id bigint NOT NULL,
    list_key text NOT NULL,
    window_start date NOT NULL,
    window_end date NOT NULL,
    change_date text NOT NULL,
    tax_id text NOT NULL,
    reason text NOT NULL,
    item text NOT NULL,
    run_id bigint,
    seen_at timestamp with time zone DEFAULT now() NOT NULL,
    resolved_at timestamp with time zone,
    resolution text
);

COMMENT ON TABLE regwatch.invalid_items IS 'Changed items the registry sent that failed validation before storage (impossible date, tax id not 8 digits, NUL or invalid UTF-8). While one is open (resolved_at null) its window is not covered.';

COMMENT ON COLUMN regwatch.invalid_items.id IS 'Generated identifier.';

COMMENT ON COLUMN regwatch.invalid_items.list_key IS 'Watch list whose changes answer held the item.';

COMMENT ON COLUMN regwatch.invalid_items.window_start IS 'First day of the interval that was asked.';

COMMENT ON COLUMN regwatch.invalid_items.window_end IS 'Last day of the interval that was asked.';

COMMENT ON COLUMN regwatch.invalid_items.change_date IS 'The item''s change date exactly as received (text: it may not be a date).';

COMMENT ON COLUMN regwatch.invalid_items.tax_id IS 'The item''s tax id exactly as received.';

COMMENT ON COLUMN regwatch.invalid_items.reason IS 'Why the item was not stored.';

COMMENT ON COLUMN regwatch.invalid_items.item IS 'The item as JSON text, NUL and other characters escaped.';

COMMENT ON COLUMN regwatch.invalid_items.run_id IS 'Run that received the item.';

COMMENT ON COLUMN regwatch.invalid_items.seen_at IS 'When the item was received.';

COMMENT ON COLUMN regwatch.invalid_items.resolved_at IS 'When the window was answered cleanly or accepted by an operator; null while open.';

COMMENT ON COLUMN regwatch.invalid_items.resolution IS 'How it was resolved: answered cleanly, or the operator''s reason given to coverage accept.';

CREATE SEQUENCE regwatch.invalid_items_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE regwatch.invalid_items_id_seq OWNED BY regwatch.invalid_items.id;

CREATE TABLE regwatch.item_outcomes (
    list_name text NOT NULL,
    tax_id text NOT NULL,
    op text NOT NULL,
    code integer,
    message text,
    at timestamp with time zone DEFAULT now() NOT NULL,
    run_id bigint,
    CONSTRAINT item_outcomes_op CHECK ((op = ANY (ARRAY['add'::text, 'remove'::text])))
);

COMMENT ON TABLE regwatch.item_outcomes IS 'Latest result of adding or removing each item on a remote list, as the registry answered it item by item.';

COMMENT ON COLUMN regwatch.item_outcomes.list_name IS 'Name of the list the operation was on.';

COMMENT ON COLUMN regwatch.item_outcomes.tax_id IS 'Tax base number the operation was about.';

COMMENT ON COLUMN regwatch.item_outcomes.op IS 'add or remove.';

COMMENT ON COLUMN regwatch.item_outcomes.code IS 'The registry''s item code when it failed: 404 no such business, 409 already on the list (add) or not removable (remove), 422 invalid tax id, 429 list or contract limit reached. Null when it succeeded.';

COMMENT ON COLUMN regwatch.item_outcomes.message IS 'Readable explanation of the outcome.';

COMMENT ON COLUMN regwatch.item_outcomes.at IS 'When the outcome was recorded.';

COMMENT ON COLUMN regwatch.item_outcomes.run_id IS 'Run that made the request (runs.id).';

CREATE TABLE regwatch.key_refusals (
    key_variable text NOT NULL,
    key_fingerprint text NOT NULL,
    refused_at timestamp with time zone DEFAULT now() NOT NULL,
    refused_day date NOT NULL,
    http_status integer,
    endpoint text NOT NULL,
    error text NOT NULL
);

COMMENT ON TABLE regwatch.key_refusals IS 'Keys the registry refused (401/403), by the variable that held them: the account''s jobs wait until the variable holds another key or the next day.';

COMMENT ON COLUMN regwatch.key_refusals.key_variable IS 'The environment variable that held the refused key (REGWATCH_API_KEY, or the account''s api_key_env); never the key.';

COMMENT ON COLUMN regwatch.key_refusals.key_fingerprint IS 'First 16 hex digits of the SHA-256 of the refused key: tells whether the variable still holds it.';

COMMENT ON COLUMN regwatch.key_refusals.refused_at IS 'When the registry refused the key (the latest refusal).';

COMMENT ON COLUMN regwatch.key_refusals.refused_day IS 'The account''s local day (its timezone) of the refusal: jobs of a later day try the key again.';

COMMENT ON COLUMN regwatch.key_refusals.http_status IS 'The refusal''s HTTP status (401 or 403).';

COMMENT ON COLUMN regwatch.key_refusals.endpoint IS 'The request that was refused, e.g. GET /v2/lists/:key/changes.';

COMMENT ON COLUMN regwatch.key_refusals.error IS 'The refusal as reported (secrets scrubbed).';

CREATE TABLE regwatch.managed_items (
    list_key text NOT NULL,
    tax_id text NOT NULL,
    adopted boolean DEFAULT false NOT NULL,
    asked_at timestamp with time zone DEFAULT now() NOT NULL,
    run_id bigint
);

COMMENT ON TABLE regwatch.managed_items IS 'What regwatch asked for on each managed remote list: items desired at a reconcile run, and adopted ones. reconcile removes a remote item only when it is here and no longer desired; the row goes when the item is removed or is neither desired nor on the list any more.';

COMMENT ON COLUMN regwatch.managed_items.list_key IS 'Remote list (managed_lists.list_key).';

COMMENT ON COLUMN regwatch.managed_items.tax_id IS 'Tax base number regwatch asked to watch on that list.';

COMMENT ON COLUMN regwatch.managed_items.adopted IS 'True when the item was adopted from the remote list rather than asked for.';

COMMENT ON COLUMN regwatch.managed_items.asked_at IS 'When reconcile first recorded the item as asked for.';

COMMENT ON COLUMN regwatch.managed_items.run_id IS 'Reconcile run that first recorded it (runs.id); null for rows the migration derived.';

CREATE TABLE regwatch.managed_lists (
    list_key text NOT NULL,
    list_name text NOT NULL,
    managed_since timestamp with time zone DEFAULT now() NOT NULL,
    adopted_on date,
    adopted_items integer DEFAULT 0 NOT NULL
);

COMMENT ON TABLE regwatch.managed_lists IS 'Remote lists regwatch manages for a desired list of the same name, from the first reconcile that used them. A desired list whose remote list is not here adopts the remote items into desired_items before anything is planned. Forgotten when the desired list is dropped with regwatch watch drop-list.';

COMMENT ON COLUMN regwatch.managed_lists.list_key IS 'Key of the remote list (watch_lists.list_key).';

COMMENT ON COLUMN regwatch.managed_lists.list_name IS 'Name of the desired list it is managed for.';

COMMENT ON COLUMN regwatch.managed_lists.managed_since IS 'When reconcile first managed the list (created it, adopted it, or the migration that introduced this table found it managed).';

COMMENT ON COLUMN regwatch.managed_lists.adopted_on IS 'Day reconcile adopted the list''s existing items; null when regwatch created the list or managed it before adoption existed.';

COMMENT ON COLUMN regwatch.managed_lists.adopted_items IS 'Items adopted into desired_items on that day.';

CREATE TABLE regwatch.payee_verifications (
    id bigint NOT NULL,
    tax_id text NOT NULL,
    bank_account text NOT NULL,
    verified_by text NOT NULL,
    verified_at timestamp with time zone DEFAULT now() NOT NULL,
    note text,
    CONSTRAINT payee_verifications_bank_account CHECK ((bank_account ~ '^[0-9]{8}-[0-9]{8}-[0-9]{8}$'::text)),
    CONSTRAINT payee_verifications_tax_id CHECK ((tax_id ~ '^[0-9]{8}$'::text)),
    CONSTRAINT payee_verifications_verified_by CHECK ((btrim(verified_by) <> ''::text))
);

COMMENT ON TABLE regwatch.payee_verifications IS 'Confirmations, made out of band (a call to the supplier on a number already held), that a bank account belongs to a business; written by `regwatch payments verify`. A verification releases the payment holds that account changes dated on or before its day caused.';

COMMENT ON COLUMN regwatch.payee_verifications.id IS 'Sequence number.';

COMMENT ON COLUMN regwatch.payee_verifications.tax_id IS 'Tax base number (8 digits) of the business the account was confirmed for.';

COMMENT ON COLUMN regwatch.payee_verifications.bank_account IS 'The confirmed account, 24 digits in three hyphenated groups (a 16-digit account padded with eight zeros).';

COMMENT ON COLUMN regwatch.payee_verifications.verified_by IS 'Who confirmed it (as given with --by, or the signed-in console user).';

COMMENT ON COLUMN regwatch.payee_verifications.verified_at IS 'When it was recorded; its day in the registry''s time zone is the day compared with change dates.';

COMMENT ON COLUMN regwatch.payee_verifications.note IS 'How it was confirmed (whom was called, on which number), as given.';

CREATE SEQUENCE regwatch.payee_verifications_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE regwatch.payee_verifications_id_seq OWNED BY regwatch.payee_verifications.id;

CREATE TABLE regwatch.payment_batches (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    checked_at timestamp with time zone DEFAULT now() NOT NULL,
    finished_at timestamp with time zone,
    checked_by text,
    source text NOT NULL,
    file_name text,
    encoding text,
    delimiter text,
    checked_on date,
    hold_days integer,
    row_count integer DEFAULT 0 NOT NULL,
    held_count integer DEFAULT 0 NOT NULL,
    totals jsonb DEFAULT '[]'::jsonb NOT NULL,
    rechecked_from uuid,
    read_columns jsonb,
    ignored_columns text[],
    columns_chosen_by text,
    columns_chosen_at timestamp with time zone,
    columns_offer uuid,
    file_size bigint,
    file_sha256 text,
    CONSTRAINT payment_batches_source CHECK ((source = ANY (ARRAY['cli'::text, 'web'::text])))
);

COMMENT ON TABLE regwatch.payment_batches IS 'One row per payment batch checked with payments check --record or uploaded in the web console: who, when, which file, how it was read, and its totals. Its rows are in payment_checks (batch_id).';

COMMENT ON COLUMN regwatch.payment_batches.id IS 'Batch identifier; payment_checks.batch_id refers to it.';

COMMENT ON COLUMN regwatch.payment_batches.checked_at IS 'When the check started.';

COMMENT ON COLUMN regwatch.payment_batches.finished_at IS 'When the last row was recorded and the totals written; null for a check that was interrupted (its rows so far are kept).';

COMMENT ON COLUMN regwatch.payment_batches.checked_by IS 'Who ran the check: payments check --by, else the operating-system user; the signed-in user in the console. Null for batches recorded before migration 0023.';

COMMENT ON COLUMN regwatch.payment_batches.source IS 'cli (payments check --record) or web (an upload in the console).';

COMMENT ON COLUMN regwatch.payment_batches.file_name IS 'Name of the checked file (without its folder), neutralised for spreadsheets; null before migration 0023.';

COMMENT ON COLUMN regwatch.payment_batches.encoding IS 'Character encoding the file was read in (utf-8, windows-1250, iso-8859-2, utf-16le, ...).';

COMMENT ON COLUMN regwatch.payment_batches.delimiter IS 'Field separator of the file: ";", "," or a tab.';

COMMENT ON COLUMN regwatch.payment_batches.checked_on IS 'The day (in the registry''s time zone) the verdicts were given for: the hold period counts back from it.';

COMMENT ON COLUMN regwatch.payment_batches.hold_days IS 'Account changes within this many days held a payment.';

COMMENT ON COLUMN regwatch.payment_batches.row_count IS 'Payments checked (rows of the file).';

COMMENT ON COLUMN regwatch.payment_batches.held_count IS 'Payments whose verdict holds them (every verdict but ok and not_watched).';

COMMENT ON COLUMN regwatch.payment_batches.totals IS 'Totals per currency, exact: an array of {"currency", "amount", "rows", "held", "held_rows"}, amounts as decimal strings in the currency''s decimals; rows without a readable amount are not counted.';

COMMENT ON COLUMN regwatch.payment_batches.rechecked_from IS 'The batch whose stored rows this one checked again (the console''s Check again); null for a checked file.';

COMMENT ON COLUMN regwatch.payment_batches.read_columns IS 'Field -> the header of the column read for it: {"bank_account": "...", "amount": "..."}; null on batches recorded before.';

COMMENT ON COLUMN regwatch.payment_batches.ignored_columns IS 'The file''s other columns, read for nothing.';

COMMENT ON COLUMN regwatch.payment_batches.columns_chosen_by IS 'Who chose the remembered columns the file was read with (payment_column_choices); null when none was used.';

COMMENT ON COLUMN regwatch.payment_batches.columns_chosen_at IS 'When that column choice was made.';

COMMENT ON COLUMN regwatch.payment_batches.columns_offer IS 'The held upload its uploader may choose the columns not found for and check again (held_uploads.id; gone after a day).';

COMMENT ON COLUMN regwatch.payment_batches.file_size IS 'The checked file''s size in bytes; null on batches recorded before migration 0051.';

COMMENT ON COLUMN regwatch.payment_batches.file_sha256 IS 'The checked file''s SHA-256, lower-case hex; the evidence report names it so a reader can verify the file.';

CREATE TABLE regwatch.payment_checks (
    id bigint NOT NULL,
    batch_id uuid NOT NULL,
    checked_at timestamp with time zone DEFAULT now() NOT NULL,
    line integer NOT NULL,
    tax_id text,
    bank_account text NOT NULL,
    verdict text NOT NULL,
    detail text,
    amount numeric,
    currency text,
    reference text,
    next_step text,
    tax_base text,
    payee_found_by text,
    name text,
    registry_name text,
    amount_raw text,
    verified_by text,
    verified_on date,
    detail_said jsonb,
    next_step_said jsonb,
    CONSTRAINT payment_checks_payee_found_by CHECK ((payee_found_by = ANY (ARRAY['tax_id'::text, 'account'::text]))),
    CONSTRAINT payment_checks_verdict CHECK ((verdict = ANY (ARRAY['invalid_tax_id'::text, 'invalid_account'::text, 'unknown_account_holder'::text, 'business_ceased'::text, 'status_unverified'::text, 'business_suspended'::text, 'account_removed'::text, 'account_not_registered'::text, 'name_mismatch'::text, 'name_unverified'::text, 'invalid_amount'::text, 'account_recently_changed'::text, 'account_change_unverified'::text, 'account_unconfirmed'::text, 'unknown_business'::text, 'not_watched'::text, 'ok'::text])))
);

COMMENT ON TABLE regwatch.payment_checks IS 'Payment rows checked by payments check --record (nothing is kept without --record): one row per payment with its verdict.';

COMMENT ON COLUMN regwatch.payment_checks.id IS 'Row identifier.';

COMMENT ON COLUMN regwatch.payment_checks.batch_id IS 'The batch (payment_batches.id) the row was checked in: the rows of one file share it.';

COMMENT ON COLUMN regwatch.payment_checks.checked_at IS 'When the batch was checked.';

COMMENT ON COLUMN regwatch.payment_checks.line IS 'Line number of the payment in the file.';

COMMENT ON COLUMN regwatch.payment_checks.tax_id IS 'Tax id as the file gave it (tax base number or tax number), neutralised for spreadsheets; null when the file gives none.';

COMMENT ON COLUMN regwatch.payment_checks.bank_account IS 'The account in canonical form, or as the file gave it (neutralised for spreadsheets) when unreadable.';

COMMENT ON COLUMN regwatch.payment_checks.verdict IS 'invalid_tax_id, invalid_account, unknown_account_holder, business_ceased, business_suspended, account_not_registered, name_mismatch, invalid_amount, account_recently_changed, account_change_unverified, unknown_business, not_watched or ok.';

COMMENT ON COLUMN regwatch.payment_checks.detail IS 'Why the verdict was given (change date, holder of the account, names compared, verification); neutralised for spreadsheets.';

COMMENT ON COLUMN regwatch.payment_checks.amount IS 'Amount from the file, when it had one.';

COMMENT ON COLUMN regwatch.payment_checks.currency IS 'Currency from the file, when it had one.';

COMMENT ON COLUMN regwatch.payment_checks.reference IS 'Reference from the file, when it had one; text a spreadsheet would run as a formula starts with an apostrophe.';

COMMENT ON COLUMN regwatch.payment_checks.next_step IS 'What to do before the payment may go (confirm the account with the supplier, fetch a change file, ...); null for ok.';

COMMENT ON COLUMN regwatch.payment_checks.tax_base IS 'Tax base number (8 digits) of the payee the row was judged against: the file''s when readable, else the business found holding the account; null when none. Rows recorded before migration 0023 get the first eight digits of a well-formed tax id.';

COMMENT ON COLUMN regwatch.payment_checks.payee_found_by IS 'How the payee was found: tax_id (the file named it) or account (the business holding the account); null when no payee was found.';

COMMENT ON COLUMN regwatch.payment_checks.name IS 'The payee''s name as the file wrote it, neutralised for spreadsheets; null when the file gives none.';

COMMENT ON COLUMN regwatch.payment_checks.registry_name IS 'The registry''s name of the payee, when known.';

COMMENT ON COLUMN regwatch.payment_checks.amount_raw IS 'The amount cell as the file wrote it (e.g. "1.250.000,50" or "1 250 000 Ft"), neutralised for spreadsheets; amount holds its value.';

COMMENT ON COLUMN regwatch.payment_checks.verified_by IS 'Who confirmed the account out of band (payee_verifications) when a verification released the row''s hold; null otherwise.';

COMMENT ON COLUMN regwatch.payment_checks.verified_on IS 'Day of that verification; null when none released a hold.';

COMMENT ON COLUMN regwatch.payment_checks.detail_said IS 'The detail''s sentences as [{code, values}] (catalog codes and their values), said by the console in its reader''s language; detail keeps the English. Null on rows recorded before migration 0045.';

COMMENT ON COLUMN regwatch.payment_checks.next_step_said IS 'The next step as {code, values}, said by the console in its own words and its reader''s language; next_step keeps the English. Null for ok rows and on rows recorded before migration 0045.';

CREATE SEQUENCE regwatch.payment_checks_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE regwatch.payment_checks_id_seq OWNED BY regwatch.payment_checks.id;

CREATE TABLE regwatch.payment_column_choices (
    signature text NOT NULL,
    headers text[] NOT NULL,
    columns jsonb NOT NULL,
    chosen_by text NOT NULL,
    chosen_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT payment_column_choices_columns CHECK (((jsonb_typeof(columns) = 'object'::text) AND (columns ? 'bank_account'::text)))
);

COMMENT ON TABLE regwatch.payment_column_choices IS 'Which column holds which payment field, chosen in the console for a header the reader did not recognise; used again for every file with that header.';

COMMENT ON COLUMN regwatch.payment_column_choices.signature IS 'The header''s cells as the reader compares them (case, accents and punctuation dropped), joined: one row per header layout.';

COMMENT ON COLUMN regwatch.payment_column_choices.headers IS 'The header''s cells as the file that prompted the choice wrote them.';

COMMENT ON COLUMN regwatch.payment_column_choices.columns IS 'Field -> header as written: {"bank_account": "...", "tax_id": "...", "amount": "...", "name": "..."}.';

COMMENT ON COLUMN regwatch.payment_column_choices.chosen_by IS 'The console user who chose the columns.';

COMMENT ON COLUMN regwatch.payment_column_choices.chosen_at IS 'When the columns were (last) chosen.';

CREATE TABLE regwatch.reader_roles (
    role text NOT NULL,
    granted_at timestamp with time zone DEFAULT now() NOT NULL
);

COMMENT ON TABLE regwatch.reader_roles IS 'Roles given read access (regwatch grant-reader): the data tables and views, never the console''s sign-in tables or where alert messages go; their grants are applied again after each migration.';

COMMENT ON COLUMN regwatch.reader_roles.role IS 'Name of the Postgres role.';

COMMENT ON COLUMN regwatch.reader_roles.granted_at IS 'When grant-reader first recorded it (or the migration found it reading the schema).';

CREATE TABLE regwatch.registry_descriptions (
    watch_url text NOT NULL,
    status text NOT NULL,
    url text,
    sha256 text,
    read_on date NOT NULL,
    read_at timestamp with time zone DEFAULT now() NOT NULL,
    from_param text,
    to_param text,
    page_param text,
    date_format text,
    end_inclusive boolean,
    tried text[] DEFAULT '{}'::text[] NOT NULL,
    problem text,
    CONSTRAINT registry_descriptions_found CHECK (((status <> 'found'::text) OR ((url IS NOT NULL) AND (sha256 IS NOT NULL) AND (from_param IS NOT NULL) AND (to_param IS NOT NULL)))),
    CONSTRAINT registry_descriptions_status CHECK ((status = ANY (ARRAY['found'::text, 'absent'::text, 'unreadable'::text])))
);

COMMENT ON TABLE regwatch.registry_descriptions IS 'What regwatch last read of the registry''s OpenAPI description (linked from {watch_base_url}/docs), one row per watch address; read again at most once a day, at the start of a sync, backfill or daemon run.';

COMMENT ON COLUMN regwatch.registry_descriptions.watch_url IS 'The watch address (REGWATCH_WATCH_URL, trailing slash removed) the description was read for.';

COMMENT ON COLUMN regwatch.registry_descriptions.status IS 'found: a description naming the changes operation''s interval parameters was read; absent: none was served at any address tried; unreadable: something was served but could not be used (see problem).';

COMMENT ON COLUMN regwatch.registry_descriptions.url IS 'Address the description was read from (status found).';

COMMENT ON COLUMN regwatch.registry_descriptions.sha256 IS 'SHA-256 of the description''s bytes as served, hex (status found): tells a changed description from the one read before.';

COMMENT ON COLUMN regwatch.registry_descriptions.read_on IS 'Day the description was read, in REGWATCH_TZ: a run reads it again only on a later day.';

COMMENT ON COLUMN regwatch.registry_descriptions.read_at IS 'When the description was read.';

COMMENT ON COLUMN regwatch.registry_descriptions.from_param IS 'Query parameter of the changes interval''s first day, as the description names it.';

COMMENT ON COLUMN regwatch.registry_descriptions.to_param IS 'Query parameter of the changes interval''s last day, as the description names it.';

COMMENT ON COLUMN regwatch.registry_descriptions.page_param IS 'Query parameter of the changes page number, when the description has one.';

COMMENT ON COLUMN regwatch.registry_descriptions.date_format IS 'Date format the description documents for the interval (an OpenAPI format such as date, or a pattern), when it documents one.';

COMMENT ON COLUMN regwatch.registry_descriptions.end_inclusive IS 'Whether the description says the interval''s last day is included; null when it does not say.';

COMMENT ON COLUMN regwatch.registry_descriptions.tried IS 'Addresses asked for a description, in order (status absent or unreadable).';

COMMENT ON COLUMN regwatch.registry_descriptions.problem IS 'Why no description could be used, in words (status absent or unreadable).';

CREATE TABLE regwatch.retention_runs (
    id bigint NOT NULL,
    ran_at timestamp with time zone DEFAULT now() NOT NULL,
    kind text NOT NULL,
    action text NOT NULL,
    count integer NOT NULL,
    batches integer NOT NULL,
    policy text NOT NULL,
    trigger text NOT NULL,
    CONSTRAINT retention_runs_action CHECK ((action = ANY (ARRAY['removed'::text, 'pseudonymised'::text]))),
    CONSTRAINT retention_runs_trigger CHECK ((trigger = ANY (ARRAY['cli'::text, 'schedule'::text])))
);

COMMENT ON TABLE regwatch.retention_runs IS 'What the retention policy did, per pass and kind of personal data: when, how many rows, under which policy; never what was removed.';

COMMENT ON COLUMN regwatch.retention_runs.id IS 'Order of the records.';

COMMENT ON COLUMN regwatch.retention_runs.ran_at IS 'When the kind''s pass finished.';

COMMENT ON COLUMN regwatch.retention_runs.kind IS 'representatives, sole_proprietors, change_bodies, payment_rows, payment_files, alert_replies or sign_ins.';

COMMENT ON COLUMN regwatch.retention_runs.action IS 'removed (rows deleted, bodies dropped) or pseudonymised (values replaced by the removal marker).';

COMMENT ON COLUMN regwatch.retention_runs.count IS 'Rows removed or pseudonymised.';

COMMENT ON COLUMN regwatch.retention_runs.batches IS 'Transactions the work took, each committed on its own.';

COMMENT ON COLUMN regwatch.retention_runs.policy IS 'The rule applied, in words: the kind, its days and the cut-off day.';

COMMENT ON COLUMN regwatch.retention_runs.trigger IS 'cli (regwatch retention apply) or schedule (the daemon''s daily pass).';

CREATE SEQUENCE regwatch.retention_runs_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE regwatch.retention_runs_id_seq OWNED BY regwatch.retention_runs.id;

CREATE TABLE regwatch.run_lease (
    id smallint DEFAULT 1 NOT NULL,
    holder text NOT NULL,
    pid integer,
    host text,
    taken_at timestamp with time zone DEFAULT now() NOT NULL,
    renewed_at timestamp with time zone DEFAULT now() NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    CONSTRAINT run_lease_id_check CHECK ((id = 1))
);

COMMENT ON TABLE regwatch.run_lease IS 'The run lock of this schema: at most one row, held by the process whose holder token it names until expires_at (renewed while the run goes on).';

COMMENT ON COLUMN regwatch.run_lease.id IS 'Always 1: the schema has one run lock.';

COMMENT ON COLUMN regwatch.run_lease.holder IS 'A random token of the holding process''s lock (never reused).';

COMMENT ON COLUMN regwatch.run_lease.pid IS 'Process id of the holder, on host.';

COMMENT ON COLUMN regwatch.run_lease.host IS 'Host name of the holder.';

COMMENT ON COLUMN regwatch.run_lease.taken_at IS 'When the holder took the lease (database clock).';

COMMENT ON COLUMN regwatch.run_lease.renewed_at IS 'The holder''s last renewal (database clock).';

COMMENT ON COLUMN regwatch.run_lease.expires_at IS 'Past this instant (database clock) the lease is free for another process.';

CREATE TABLE regwatch.runs (
    id bigint NOT NULL,
    kind text NOT NULL,
    trigger text NOT NULL,
    started_at timestamp with time zone DEFAULT now() NOT NULL,
    finished_at timestamp with time zone,
    status text DEFAULT 'running'::text NOT NULL,
    stats jsonb DEFAULT '{}'::jsonb NOT NULL,
    error text,
    pid integer,
    host text,
    CONSTRAINT runs_status CHECK ((status = ANY (ARRAY['running'::text, 'ok'::text, 'partial'::text, 'failed'::text]))),
    CONSTRAINT runs_trigger CHECK ((trigger = ANY (ARRAY['cli'::text, 'schedule'::text, 'catchup'::text, 'manual'::text])))
);

COMMENT ON TABLE regwatch.runs IS 'Every run of a command or the daemon that calls the registry, with its outcome.';

COMMENT ON COLUMN regwatch.runs.id IS 'Run number.';

COMMENT ON COLUMN regwatch.runs.kind IS 'What ran: sync, backfill, reconcile, ...';

COMMENT ON COLUMN regwatch.runs.trigger IS 'cli (a command), schedule (the daemon or a job it queued), catchup (the daemon at start), manual (a job queued with regwatch enqueue)';

COMMENT ON COLUMN regwatch.runs.started_at IS 'When the run started.';

COMMENT ON COLUMN regwatch.runs.finished_at IS 'When it finished; null while running.';

COMMENT ON COLUMN regwatch.runs.status IS 'running, ok, partial (some work failed and stays pending) or failed.';

COMMENT ON COLUMN regwatch.runs.stats IS 'Counts of the run (requests, windows, changes, files, ...), as JSON.';

COMMENT ON COLUMN regwatch.runs.error IS 'Why the run failed.';

COMMENT ON COLUMN regwatch.runs.pid IS 'Process id of the run.';

COMMENT ON COLUMN regwatch.runs.host IS 'Host name of the machine the run was on.';

CREATE SEQUENCE regwatch.runs_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE regwatch.runs_id_seq OWNED BY regwatch.runs.id;

CREATE TABLE regwatch.search_bank_accounts (
    id bigint NOT NULL,
    tax_id text NOT NULL,
    seen_at timestamp with time zone NOT NULL,
    bank_accounts text[] NOT NULL
);

COMMENT ON TABLE regwatch.search_bank_accounts IS 'Every list of bank accounts a business''s search record showed, from the first read that showed it (a trigger on businesses adds a row when the list differs from the last one, or when a bank_accounts change came between): v_bank_accounts dates an account by the first record that listed it.';

COMMENT ON COLUMN regwatch.search_bank_accounts.id IS 'Row identifier; orders the lists of one business.';

COMMENT ON COLUMN regwatch.search_bank_accounts.tax_id IS 'Tax base number of the business (8 digits).';

COMMENT ON COLUMN regwatch.search_bank_accounts.seen_at IS 'When the record showing this list was read (businesses.fetched_at of that read).';

COMMENT ON COLUMN regwatch.search_bank_accounts.bank_accounts IS 'The accounts the record listed, canonical (xxxxxxxx-xxxxxxxx-xxxxxxxx), sorted; empty when it listed none.';

CREATE SEQUENCE regwatch.search_bank_accounts_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE regwatch.search_bank_accounts_id_seq OWNED BY regwatch.search_bank_accounts.id;

CREATE TABLE regwatch.seen_headings (
    heading text NOT NULL,
    first_seen_at timestamp with time zone DEFAULT now() NOT NULL
);

COMMENT ON TABLE regwatch.seen_headings IS 'Every heading the data has named (a change''s changed_headings, a parsed value, a profile), kept up to date by the alert scan of each run; alerts rule add refuses a heading not seen here or in changes not scanned yet, unless --new-heading.';

COMMENT ON COLUMN regwatch.seen_headings.heading IS 'The heading, as the registry names it.';

COMMENT ON COLUMN regwatch.seen_headings.first_seen_at IS 'When regwatch first noted the heading (for headings seen before migration 0018: when it ran).';

CREATE VIEW regwatch.v_api_usage_monthly AS
 SELECT to_char((u.day)::timestamp with time zone, 'YYYY-MM'::text) AS month,
    u.api,
    (sum(u.requests))::integer AS requests,
    (sum(u.errors))::integer AS errors,
    (count(DISTINCT u.day))::integer AS active_days
   FROM regwatch.api_usage u
  GROUP BY (to_char((u.day)::timestamp with time zone, 'YYYY-MM'::text)), u.api;

COMMENT ON VIEW regwatch.v_api_usage_monthly IS 'Requests per calendar month and interface; compare the search row with REGWATCH_SEARCH_MONTHLY_QUOTA.';

COMMENT ON COLUMN regwatch.v_api_usage_monthly.month IS 'Month as YYYY-MM.';

COMMENT ON COLUMN regwatch.v_api_usage_monthly.api IS 'Interface: watch, search or files.';

COMMENT ON COLUMN regwatch.v_api_usage_monthly.requests IS 'Requests sent, retries included.';

COMMENT ON COLUMN regwatch.v_api_usage_monthly.errors IS 'Requests of those that failed.';

COMMENT ON COLUMN regwatch.v_api_usage_monthly.active_days IS 'Days of the month with at least one request.';

CREATE TABLE regwatch.watch_lists (
    list_key text NOT NULL,
    list_name text NOT NULL,
    created_at date,
    watch_count integer,
    first_seen_at timestamp with time zone DEFAULT now() NOT NULL,
    last_seen_at timestamp with time zone DEFAULT now() NOT NULL,
    deleted_at timestamp with time zone,
    items_read_on date
);

COMMENT ON TABLE regwatch.watch_lists IS 'Watch lists as the registry last returned them. A list no longer returned keeps its row, marked by deleted_at.';

COMMENT ON COLUMN regwatch.watch_lists.list_key IS 'The registry''s identifier of the list.';

COMMENT ON COLUMN regwatch.watch_lists.list_name IS 'Name of the list; desired_lists refers to lists by this name.';

COMMENT ON COLUMN regwatch.watch_lists.created_at IS 'Day the list was created, as the registry reports it.';

COMMENT ON COLUMN regwatch.watch_lists.watch_count IS 'Number of items on the list, as the registry last reported it.';

COMMENT ON COLUMN regwatch.watch_lists.first_seen_at IS 'When regwatch first saw the list.';

COMMENT ON COLUMN regwatch.watch_lists.last_seen_at IS 'When the registry last returned the list.';

COMMENT ON COLUMN regwatch.watch_lists.deleted_at IS 'When the list stopped being returned; null while it exists.';

COMMENT ON COLUMN regwatch.watch_lists.items_read_on IS 'Day (in the registry''s zone) the list''s items were last read into watched_items; a sync reads every list''s items at most once a day, reconcile reads the lists it manages on every run.';

CREATE VIEW regwatch.v_heading_changes AS
 SELECT cv.change_id,
    cv.tax_id,
    COALESCE(bp.name, b.full_name) AS business_name,
    cv.change_date,
    cv.heading,
    cv.old_value,
    cv.new_value,
    COALESCE(src.list_names, '{}'::text[]) AS list_names,
    c.chapter,
    cv.path,
    cv.day_order,
    cv.order_ambiguous,
    cv.old_value_known
   FROM ((((regwatch.change_values cv
     JOIN regwatch.changes c ON ((c.id = cv.change_id)))
     LEFT JOIN regwatch.business_profiles bp ON ((bp.tax_id = cv.tax_id)))
     LEFT JOIN regwatch.businesses b ON ((b.tax_id = cv.tax_id)))
     LEFT JOIN LATERAL ( SELECT array_agg(DISTINCT COALESCE(l.list_name, s.list_key)) AS list_names
           FROM (regwatch.change_sources s
             LEFT JOIN regwatch.watch_lists l ON ((l.list_key = s.list_key)))
          WHERE (s.change_id = cv.change_id)) src ON (true));

COMMENT ON VIEW regwatch.v_heading_changes IS 'What changed: one row per changed heading with its old and new value, the business''s best known name and the lists that reported the change. Newest first: order by change_date desc.';

COMMENT ON COLUMN regwatch.v_heading_changes.change_id IS 'changes.id.';

COMMENT ON COLUMN regwatch.v_heading_changes.tax_id IS 'Tax base number of the business that changed.';

COMMENT ON COLUMN regwatch.v_heading_changes.business_name IS 'Best known name: business_profiles.name, else businesses.full_name.';

COMMENT ON COLUMN regwatch.v_heading_changes.change_date IS 'Day of the change.';

COMMENT ON COLUMN regwatch.v_heading_changes.heading IS 'The heading that changed.';

COMMENT ON COLUMN regwatch.v_heading_changes.old_value IS 'Value before the change (any JSON); null for a first registration, or when old_value_known is false.';

COMMENT ON COLUMN regwatch.v_heading_changes.new_value IS 'Value after the change (any JSON).';

COMMENT ON COLUMN regwatch.v_heading_changes.list_names IS 'Names of the lists that reported the change.';

COMMENT ON COLUMN regwatch.v_heading_changes.chapter IS 'Chapter of the change record.';

COMMENT ON COLUMN regwatch.v_heading_changes.path IS 'The change file the values were read from.';

COMMENT ON COLUMN regwatch.v_heading_changes.day_order IS 'Position among the business''s values of the heading on that day (1 = first), from chaining old and new values; null when the order is ambiguous.';

COMMENT ON COLUMN regwatch.v_heading_changes.order_ambiguous IS 'True when the business has several values of this heading that day in no known order: which of them held after the day is not known.';

COMMENT ON COLUMN regwatch.v_heading_changes.old_value_known IS 'False when the change file did not give the value before the change: old_value is null but not known to be.';

CREATE VIEW regwatch.v_bank_account_changes AS
 SELECT h.change_id,
    h.tax_id,
    h.business_name,
    h.change_date,
    regwatch.bank_account_list(h.old_value) AS accounts_before,
    regwatch.bank_account_list(h.new_value) AS accounts_after,
    ARRAY( SELECT unnest(regwatch.bank_account_list(h.new_value)) AS unnest
        EXCEPT
         SELECT unnest(regwatch.bank_account_list(h.old_value)) AS unnest
  ORDER BY 1) AS added,
    ARRAY( SELECT unnest(regwatch.bank_account_list(h.old_value)) AS unnest
        EXCEPT
         SELECT unnest(regwatch.bank_account_list(h.new_value)) AS unnest
  ORDER BY 1) AS removed,
    h.list_names,
    h.path
   FROM regwatch.v_heading_changes h
  WHERE (h.heading = 'bank_accounts'::text);

COMMENT ON VIEW regwatch.v_bank_account_changes IS 'One row per bank-account change: the accounts before and after, and those added and removed, as text arrays.';

COMMENT ON COLUMN regwatch.v_bank_account_changes.change_id IS 'changes.id.';

COMMENT ON COLUMN regwatch.v_bank_account_changes.tax_id IS 'Tax base number of the business.';

COMMENT ON COLUMN regwatch.v_bank_account_changes.business_name IS 'Best known name: business_profiles.name, else businesses.full_name.';

COMMENT ON COLUMN regwatch.v_bank_account_changes.change_date IS 'Day of the change.';

COMMENT ON COLUMN regwatch.v_bank_account_changes.accounts_before IS 'Accounts held before the change, sorted.';

COMMENT ON COLUMN regwatch.v_bank_account_changes.accounts_after IS 'Accounts held after the change, sorted.';

COMMENT ON COLUMN regwatch.v_bank_account_changes.added IS 'Accounts the change added (after but not before).';

COMMENT ON COLUMN regwatch.v_bank_account_changes.removed IS 'Accounts the change removed (before but not after).';

COMMENT ON COLUMN regwatch.v_bank_account_changes.list_names IS 'Names of the lists that reported the change.';

COMMENT ON COLUMN regwatch.v_bank_account_changes.path IS 'The change file the accounts were read from.';

CREATE VIEW regwatch.v_bank_accounts AS
 SELECT bank_accounts_of_businesses.tax_id,
    bank_accounts_of_businesses.bank_account,
    bank_accounts_of_businesses.first_seen,
    bank_accounts_of_businesses.last_seen,
    bank_accounts_of_businesses.currently_registered,
    bank_accounts_of_businesses.added_on,
    bank_accounts_of_businesses.sources,
    bank_accounts_of_businesses.added_source
   FROM regwatch.bank_accounts_of_businesses(NULL::text[]) bank_accounts_of_businesses(tax_id, bank_account, first_seen, last_seen, currently_registered, added_on, sources, added_source);

COMMENT ON VIEW regwatch.v_bank_accounts IS 'One row per business and bank account known from any source (search records and their history, profiles and their baselines, bank_accounts change values), with when it was seen, whether the newest source still lists it and when it was added. payments check reads it.';

COMMENT ON COLUMN regwatch.v_bank_accounts.tax_id IS 'Tax base number of the business (8 digits).';

COMMENT ON COLUMN regwatch.v_bank_accounts.bank_account IS 'The account in canonical form: 24 digits as xxxxxxxx-xxxxxxxx-xxxxxxxx (a 16-digit number ends in -00000000).';

COMMENT ON COLUMN regwatch.v_bank_accounts.first_seen IS 'Earliest day a source showed the business holding the account (record read, change date, or the day before a change that replaced it).';

COMMENT ON COLUMN regwatch.v_bank_accounts.last_seen IS 'Latest day a source showed the business holding the account.';

COMMENT ON COLUMN regwatch.v_bank_accounts.currently_registered IS 'True when the newest list of the business''s accounts holds the account (by date; on one day a change beats a profile, a profile a search record; same-day changes in their chained order; when the newest day''s changes are in no known order, an account any of them lists).';

COMMENT ON COLUMN regwatch.v_bank_accounts.added_on IS 'Latest day the account was added: a bank_accounts change whose old value lacked it, or the first record (search, profile, change) that listed it when the business''s record before did not. Null when it was listed from the business''s first record on.';

COMMENT ON COLUMN regwatch.v_bank_accounts.sources IS 'Sources that showed the account: baseline, search, profile, change.';

COMMENT ON COLUMN regwatch.v_bank_accounts.added_source IS 'Source that showed the addition of added_on: change, search, profile or baseline; null when added_on is.';

CREATE VIEW regwatch.v_business_names AS
 SELECT b.tax_id,
    COALESCE(b.full_name, b.short_name) AS name,
    b.short_name,
    b.type,
    b.status_code,
        CASE b.status_code
            WHEN 0 THEN 'ceased'::text
            WHEN 1 THEN 'operating'::text
            WHEN 2 THEN 'suspended'::text
            ELSE NULL::text
        END AS status,
    b.registration_number,
    (jsonb_array_length(b.records) > 1) AS changed_type,
    b.fetched_at
   FROM regwatch.businesses b;

COMMENT ON VIEW regwatch.v_business_names IS 'The latest known name and status of each business a search returned, one row per tax base number.';

COMMENT ON COLUMN regwatch.v_business_names.tax_id IS 'Tax base number.';

COMMENT ON COLUMN regwatch.v_business_names.name IS 'Full name, else the short name.';

COMMENT ON COLUMN regwatch.v_business_names.short_name IS 'Short name, when the business has one.';

COMMENT ON COLUMN regwatch.v_business_names.type IS 'Kind of business.';

COMMENT ON COLUMN regwatch.v_business_names.status_code IS 'status_code as received.';

COMMENT ON COLUMN regwatch.v_business_names.status IS 'status_code in words: ceased, operating, suspended; null for a code not documented.';

COMMENT ON COLUMN regwatch.v_business_names.registration_number IS 'Registration number.';

COMMENT ON COLUMN regwatch.v_business_names.changed_type IS 'The tax base number belonged to more than one kind of business (businesses.records has several).';

COMMENT ON COLUMN regwatch.v_business_names.fetched_at IS 'When the search last returned the business.';

CREATE VIEW regwatch.v_change_headings AS
 SELECT c.id AS change_id,
    c.tax_id,
    COALESCE(bp.name, n.name) AS business_name,
    c.change_date,
    h.heading,
    c.chapter,
    COALESCE(src.list_names, '{}'::text[]) AS list_names,
    f.status AS file_status,
    c.path
   FROM (((((regwatch.changes c
     CROSS JOIN LATERAL unnest(c.changed_headings) h(heading))
     LEFT JOIN regwatch.business_profiles bp ON ((bp.tax_id = c.tax_id)))
     LEFT JOIN regwatch.v_business_names n ON ((n.tax_id = c.tax_id)))
     LEFT JOIN regwatch.change_files f ON ((f.path = c.path)))
     LEFT JOIN LATERAL ( SELECT array_agg(DISTINCT COALESCE(l.list_name, s.list_key)) AS list_names
           FROM (regwatch.change_sources s
             LEFT JOIN regwatch.watch_lists l ON ((l.list_key = s.list_key)))
          WHERE (s.change_id = c.id)) src ON (true));

COMMENT ON VIEW regwatch.v_change_headings IS 'One row per change and changed heading, with the business name: filter on heading to follow one kind of change.';

COMMENT ON COLUMN regwatch.v_change_headings.change_id IS 'changes.id.';

COMMENT ON COLUMN regwatch.v_change_headings.tax_id IS 'Tax base number of the business that changed.';

COMMENT ON COLUMN regwatch.v_change_headings.business_name IS 'Best known name: business_profiles.name, else v_business_names.name.';

COMMENT ON COLUMN regwatch.v_change_headings.change_date IS 'Day of the change.';

COMMENT ON COLUMN regwatch.v_change_headings.heading IS 'One heading of changes.changed_headings.';

COMMENT ON COLUMN regwatch.v_change_headings.chapter IS 'Chapter of the change record.';

COMMENT ON COLUMN regwatch.v_change_headings.list_names IS 'Names of the lists that reported the change.';

COMMENT ON COLUMN regwatch.v_change_headings.file_status IS 'State of the change file.';

COMMENT ON COLUMN regwatch.v_change_headings.path IS 'Address of the change file.';

CREATE VIEW regwatch.v_changes AS
 SELECT c.id,
    c.tax_id,
    c.change_date,
    c.chapter,
    c.changed_headings,
    c.path,
    COALESCE(src.list_keys, '{}'::text[]) AS list_keys,
    COALESCE(src.list_names, '{}'::text[]) AS list_names,
    f.status AS file_status,
    f.content_type AS file_content_type,
    f.body_json AS file_json,
    b.full_name AS business_name,
    c.first_seen_at,
    (jsonb_build_object('change', to_char((c.change_date)::timestamp with time zone, 'YYYY-MM-DD'::text), 'tax_id', c.tax_id, 'chapter', c.chapter, 'changed_headings', to_jsonb(c.changed_headings), 'path', c.path) || c.raw) AS raw
   FROM (((regwatch.changes c
     LEFT JOIN LATERAL ( SELECT array_agg(s.list_key ORDER BY s.list_key) AS list_keys,
            array_agg(COALESCE(l.list_name, s.list_key) ORDER BY s.list_key) AS list_names
           FROM (regwatch.change_sources s
             LEFT JOIN regwatch.watch_lists l ON ((l.list_key = s.list_key)))
          WHERE (s.change_id = c.id)) src ON (true))
     LEFT JOIN regwatch.change_files f ON ((f.path = c.path)))
     LEFT JOIN regwatch.businesses b ON ((b.tax_id = c.tax_id)));

COMMENT ON VIEW regwatch.v_changes IS 'Each change with the lists that reported it, its file''s state and content, and the business name when known.';

COMMENT ON COLUMN regwatch.v_changes.id IS 'changes.id.';

COMMENT ON COLUMN regwatch.v_changes.tax_id IS 'Tax base number of the business that changed.';

COMMENT ON COLUMN regwatch.v_changes.change_date IS 'Day of the change.';

COMMENT ON COLUMN regwatch.v_changes.chapter IS 'Chapter of the change record.';

COMMENT ON COLUMN regwatch.v_changes.changed_headings IS 'Registry headings that changed.';

COMMENT ON COLUMN regwatch.v_changes.path IS 'Address of the change file.';

COMMENT ON COLUMN regwatch.v_changes.list_keys IS 'Keys of the lists that reported the change.';

COMMENT ON COLUMN regwatch.v_changes.list_names IS 'Names of those lists, in the order of list_keys.';

COMMENT ON COLUMN regwatch.v_changes.file_status IS 'change_files.status of the change file; null when no file row exists yet.';

COMMENT ON COLUMN regwatch.v_changes.file_content_type IS 'Content-Type of the change file.';

COMMENT ON COLUMN regwatch.v_changes.file_json IS 'The change file''s content when it is JSON.';

COMMENT ON COLUMN regwatch.v_changes.business_name IS 'Full name from businesses, when a search has returned the business.';

COMMENT ON COLUMN regwatch.v_changes.first_seen_at IS 'When regwatch first stored the change.';

COMMENT ON COLUMN regwatch.v_changes.raw IS 'The change as received: the typed columns merged with changes.raw.';

CREATE VIEW regwatch.v_coverage AS
 WITH days AS (
         SELECT DISTINCT c.list_key,
            (d.d)::date AS day
           FROM regwatch.coverage c,
            LATERAL generate_series((c.start_date)::timestamp with time zone, (c.end_date)::timestamp with time zone, '1 day'::interval) d(d)
        )
 SELECT l.list_key,
    l.list_name,
    min(days.day) AS first_covered_day,
    max(days.day) AS last_covered_day,
    (count(days.day))::integer AS covered_days,
        CASE
            WHEN (count(days.day) = 0) THEN 0
            ELSE ((((max(days.day) - min(days.day)) + 1) - count(days.day)))::integer
        END AS gap_days,
    (l.deleted_at IS NOT NULL) AS deleted
   FROM (regwatch.watch_lists l
     LEFT JOIN days ON ((days.list_key = l.list_key)))
  GROUP BY l.list_key, l.list_name, l.deleted_at;

COMMENT ON VIEW regwatch.v_coverage IS 'Per list: first and last covered day, number of covered days, and days missing in between.';

COMMENT ON COLUMN regwatch.v_coverage.list_key IS 'watch_lists.list_key.';

COMMENT ON COLUMN regwatch.v_coverage.list_name IS 'Name of the list.';

COMMENT ON COLUMN regwatch.v_coverage.first_covered_day IS 'Earliest day covered; null when nothing was fetched yet.';

COMMENT ON COLUMN regwatch.v_coverage.last_covered_day IS 'Latest day covered.';

COMMENT ON COLUMN regwatch.v_coverage.covered_days IS 'Distinct days covered.';

COMMENT ON COLUMN regwatch.v_coverage.gap_days IS 'Days between the first and the last covered day that no interval covers (v_coverage_gaps lists them).';

COMMENT ON COLUMN regwatch.v_coverage.deleted IS 'The list no longer exists in the registry.';

CREATE VIEW regwatch.v_coverage_gaps AS
 WITH days AS (
         SELECT DISTINCT c.list_key,
            (d.d)::date AS day
           FROM regwatch.coverage c,
            LATERAL generate_series((c.start_date)::timestamp with time zone, (c.end_date)::timestamp with time zone, '1 day'::interval) d(d)
        ), runs_of_days AS (
         SELECT numbered.list_key,
            min(numbered.day) AS first_day,
            max(numbered.day) AS last_day
           FROM ( SELECT days.list_key,
                    days.day,
                    (days.day - (row_number() OVER (PARTITION BY days.list_key ORDER BY days.day))::integer) AS grp
                   FROM days) numbered
          GROUP BY numbered.list_key, numbered.grp
        ), gaps AS (
         SELECT runs_of_days.list_key,
            (runs_of_days.last_day + 1) AS gap_start,
            (lead(runs_of_days.first_day) OVER (PARTITION BY runs_of_days.list_key ORDER BY runs_of_days.first_day) - 1) AS gap_end
           FROM runs_of_days
        )
 SELECT g.list_key,
    l.list_name,
    g.gap_start,
    g.gap_end,
    ((g.gap_end - g.gap_start) + 1) AS gap_days
   FROM (gaps g
     LEFT JOIN regwatch.watch_lists l ON ((l.list_key = g.list_key)))
  WHERE (g.gap_end IS NOT NULL);

COMMENT ON VIEW regwatch.v_coverage_gaps IS 'Each run of uncovered days between the first and the last covered day of a list.';

COMMENT ON COLUMN regwatch.v_coverage_gaps.list_key IS 'watch_lists.list_key.';

COMMENT ON COLUMN regwatch.v_coverage_gaps.list_name IS 'Name of the list.';

COMMENT ON COLUMN regwatch.v_coverage_gaps.gap_start IS 'First uncovered day.';

COMMENT ON COLUMN regwatch.v_coverage_gaps.gap_end IS 'Last uncovered day.';

COMMENT ON COLUMN regwatch.v_coverage_gaps.gap_days IS 'Days in the gap.';

CREATE VIEW regwatch.v_item_failures AS
 SELECT o.list_name,
    o.tax_id,
    n.name AS business_name,
    o.op,
    o.code,
        CASE o.code
            WHEN 404 THEN 'no such business in the registry'::text
            WHEN 409 THEN
            CASE o.op
                WHEN 'add'::text THEN 'already on the list'::text
                ELSE 'not in a state that allows removal'::text
            END
            WHEN 422 THEN 'invalid tax base number'::text
            WHEN 429 THEN 'list or contract limit reached'::text
            ELSE 'other failure'::text
        END AS reason,
    o.message,
    o.at,
    o.run_id,
    (di.tax_id IS NOT NULL) AS still_desired
   FROM ((regwatch.item_outcomes o
     LEFT JOIN regwatch.desired_items di ON (((di.list_name = o.list_name) AND (di.tax_id = o.tax_id))))
     LEFT JOIN regwatch.v_business_names n ON ((n.tax_id = o.tax_id)))
  WHERE (o.code IS NOT NULL);

COMMENT ON VIEW regwatch.v_item_failures IS 'Every item whose latest add or remove the registry refused, with the reason in words and whether it is still desired.';

COMMENT ON COLUMN regwatch.v_item_failures.list_name IS 'Name of the list.';

COMMENT ON COLUMN regwatch.v_item_failures.tax_id IS 'Tax base number.';

COMMENT ON COLUMN regwatch.v_item_failures.business_name IS 'Latest known name, when a search returned the business.';

COMMENT ON COLUMN regwatch.v_item_failures.op IS 'add or remove.';

COMMENT ON COLUMN regwatch.v_item_failures.code IS 'The registry''s item code: 404, 409, 422 or 429.';

COMMENT ON COLUMN regwatch.v_item_failures.reason IS 'The code in words.';

COMMENT ON COLUMN regwatch.v_item_failures.message IS 'Explanation recorded with the outcome.';

COMMENT ON COLUMN regwatch.v_item_failures.at IS 'When the outcome was recorded.';

COMMENT ON COLUMN regwatch.v_item_failures.run_id IS 'Run that made the request.';

COMMENT ON COLUMN regwatch.v_item_failures.still_desired IS 'The item is still in desired_items, so the reconciler will try again.';

CREATE VIEW regwatch.v_open_alerts AS
 SELECT a.id AS alert_id,
    r.name AS rule_name,
    r.channel,
    c.tax_id,
    p.name,
    c.change_date,
    c.changed_headings,
    ( SELECT array_agg(DISTINCT COALESCE(w.list_name, s.list_key) ORDER BY COALESCE(w.list_name, s.list_key)) AS array_agg
           FROM (regwatch.change_sources s
             LEFT JOIN regwatch.watch_lists w ON ((w.list_key = s.list_key)))
          WHERE (s.change_id = c.id)) AS lists,
    a.raised_at,
    a.status AS stored_status,
    a.snoozed_until,
    ( SELECT
                CASE
                    WHEN bool_or((d.status = 'dead'::text)) THEN 'dead'::text
                    WHEN bool_or((d.status = 'pending'::text)) THEN 'pending'::text
                    WHEN bool_or((d.status = 'sent'::text)) THEN 'sent'::text
                    ELSE NULL::text
                END AS "case"
           FROM regwatch.alert_deliveries d
          WHERE (a.id = ANY (d.alert_ids))) AS delivery
   FROM (((regwatch.alerts a
     JOIN regwatch.alert_rules r ON ((r.id = a.rule_id)))
     JOIN regwatch.changes c ON ((c.id = a.change_id)))
     LEFT JOIN regwatch.business_profiles p ON ((p.tax_id = c.tax_id)))
  WHERE ((a.status = 'open'::text) OR ((a.status = 'snoozed'::text) AND (a.snoozed_until < regwatch.registry_day(now()))));

COMMENT ON VIEW regwatch.v_open_alerts IS 'Alerts someone should look at: open ones and snoozed ones whose snooze has ended, with the business, change, lists and delivery state.';

COMMENT ON COLUMN regwatch.v_open_alerts.alert_id IS 'The alert (regwatch.alerts.id).';

COMMENT ON COLUMN regwatch.v_open_alerts.rule_name IS 'Name of the rule that raised it.';

COMMENT ON COLUMN regwatch.v_open_alerts.channel IS 'The rule''s channel.';

COMMENT ON COLUMN regwatch.v_open_alerts.tax_id IS 'Tax base number of the business that changed.';

COMMENT ON COLUMN regwatch.v_open_alerts.name IS 'Best known name of the business (business_profiles).';

COMMENT ON COLUMN regwatch.v_open_alerts.change_date IS 'Day of the change.';

COMMENT ON COLUMN regwatch.v_open_alerts.changed_headings IS 'Headings the change touched.';

COMMENT ON COLUMN regwatch.v_open_alerts.lists IS 'Names of the lists that reported the change.';

COMMENT ON COLUMN regwatch.v_open_alerts.raised_at IS 'When the alert was raised.';

COMMENT ON COLUMN regwatch.v_open_alerts.stored_status IS 'Status as stored: open, or snoozed when the snooze ended and no delivery pass has reopened it yet.';

COMMENT ON COLUMN regwatch.v_open_alerts.snoozed_until IS 'Last day of an ended snooze, else null.';

COMMENT ON COLUMN regwatch.v_open_alerts.delivery IS 'Worst state of the alert''s messages: dead, pending or sent (null when none).';

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
   FROM (( SELECT c.tax_id,
            h.heading,
            max(c.change_date) AS since
           FROM (regwatch.changes c
             CROSS JOIN LATERAL unnest(c.changed_headings) h(heading))
          GROUP BY c.tax_id, h.heading) l
     CROSS JOIN LATERAL ( SELECT c.id AS change_id,
            c.chapter,
            c.path,
            c.first_seen_at,
            f.status AS file_status,
            f.parse_status,
            f.last_error AS file_error,
            f.parse_error
           FROM (regwatch.changes c
             LEFT JOIN regwatch.change_files f ON ((f.path = c.path)))
          WHERE ((c.tax_id = l.tax_id) AND (c.change_date = l.since) AND (l.heading = ANY (c.changed_headings)) AND (NOT (EXISTS ( SELECT 1
                   FROM regwatch.change_values cv
                  WHERE ((cv.change_id = c.id) AND (cv.heading = l.heading))))))
          ORDER BY c.id
         LIMIT 1) u)
  WHERE (NOT (EXISTS ( SELECT 1
           FROM regwatch.businesses b
          WHERE ((b.tax_id = l.tax_id) AND (jsonb_typeof(b.record) = 'object'::text) AND (b.record ?
                CASE l.heading
                    WHEN 'long_name'::text THEN 'full_name'::text
                    WHEN 'status'::text THEN 'status_code'::text
                    ELSE l.heading
                END) AND ((b.fetched_at >= u.first_seen_at) OR (regwatch.registry_day(b.fetched_at) > (l.since + 1)))))));

COMMENT ON VIEW regwatch.v_unread_headings IS 'Headings whose latest change (by day) has no values regwatch could read: what is stored for them (profile, older changes, an older search record) is stale from `since`; a search record read after the change settles it. One row per business and heading.';

COMMENT ON COLUMN regwatch.v_unread_headings.tax_id IS 'Tax base number of the business.';

COMMENT ON COLUMN regwatch.v_unread_headings.heading IS 'The heading whose value is not known since the change.';

COMMENT ON COLUMN regwatch.v_unread_headings.since IS 'Day of the latest change of the heading, whose values were not read: the value is unknown from that day.';

COMMENT ON COLUMN regwatch.v_unread_headings.change_id IS 'The unread change (regwatch.changes.id); the first by id when several of that day are unread.';

COMMENT ON COLUMN regwatch.v_unread_headings.chapter IS 'Chapter of the unread change.';

COMMENT ON COLUMN regwatch.v_unread_headings.path IS 'Its change file.';

COMMENT ON COLUMN regwatch.v_unread_headings.file_status IS 'change_files.status of its file (pending, fetched, failed, refused, skipped); null when no file row exists.';

COMMENT ON COLUMN regwatch.v_unread_headings.parse_status IS 'change_files.parse_status of its file (null: not parsed yet).';

COMMENT ON COLUMN regwatch.v_unread_headings.file_error IS 'Why fetching the file failed, as stored.';

COMMENT ON COLUMN regwatch.v_unread_headings.parse_error IS 'Why parsing the file gave no value, as stored.';

CREATE TABLE regwatch.watched_items (
    list_key text NOT NULL,
    tax_id text NOT NULL,
    added_at date,
    first_seen_at timestamp with time zone DEFAULT now() NOT NULL,
    last_seen_at timestamp with time zone DEFAULT now() NOT NULL
);

COMMENT ON TABLE regwatch.watched_items IS 'Items (tax base numbers) on each remote list, as last read from the registry.';

COMMENT ON COLUMN regwatch.watched_items.list_key IS 'List the item is on (watch_lists.list_key).';

COMMENT ON COLUMN regwatch.watched_items.tax_id IS 'Tax base number of the watched business: 8 digits, the last a check digit.';

COMMENT ON COLUMN regwatch.watched_items.added_at IS 'Day watching started, as the registry reports it.';

COMMENT ON COLUMN regwatch.watched_items.first_seen_at IS 'When regwatch first saw the item on the list.';

COMMENT ON COLUMN regwatch.watched_items.last_seen_at IS 'When the row last changed: first read, or a read that brought a different added_at. Every item on a list was read at the list''s last reconcile (rows no longer returned are deleted).';

CREATE VIEW regwatch.v_watch_status AS
 WITH remote AS (
         SELECT l.list_key,
            l.list_name,
            i.tax_id,
            i.added_at
           FROM (regwatch.watched_items i
             JOIN regwatch.watch_lists l ON (((l.list_key = i.list_key) AND (l.deleted_at IS NULL))))
        )
 SELECT COALESCE(d.list_name, r.list_name) AS list_name,
    COALESCE(d.tax_id, r.tax_id) AS tax_id,
    (d.tax_id IS NOT NULL) AS desired,
    (r.tax_id IS NOT NULL) AS watched,
    r.added_at,
    o.op AS last_op,
    o.code AS last_code,
    o.message AS last_message,
    o.at AS last_outcome_at,
        CASE
            WHEN ((d.tax_id IS NOT NULL) AND (r.tax_id IS NOT NULL)) THEN 'in_sync'::text
            WHEN ((d.tax_id IS NOT NULL) AND (o.op = 'add'::text) AND (o.code IS NOT NULL)) THEN 'add_failed'::text
            WHEN (d.tax_id IS NOT NULL) THEN 'pending_add'::text
            WHEN ((dl.list_name IS NOT NULL) AND (mi.tax_id IS NOT NULL) AND dl.prune) THEN 'pending_remove'::text
            WHEN ((dl.list_name IS NOT NULL) AND (mi.tax_id IS NULL) AND (ml.list_key IS NOT NULL)) THEN 'not_requested'::text
            ELSE 'unmanaged'::text
        END AS state,
    COALESCE(bp.name, b.full_name) AS business_name
   FROM (((((((( SELECT DISTINCT di.list_name,
            COALESCE("substring"(btrim(di.tax_id), '^(\d{8})(-\d-\d{2})?$'::text), di.tax_id) AS tax_id
           FROM regwatch.desired_items di) d
     FULL JOIN remote r ON (((r.list_name = d.list_name) AND (r.tax_id = d.tax_id))))
     LEFT JOIN regwatch.desired_lists dl ON ((dl.list_name = COALESCE(d.list_name, r.list_name))))
     LEFT JOIN regwatch.managed_lists ml ON ((ml.list_key = r.list_key)))
     LEFT JOIN regwatch.managed_items mi ON (((mi.list_key = r.list_key) AND (mi.tax_id = r.tax_id))))
     LEFT JOIN LATERAL ( SELECT io.op,
            io.code,
            io.message,
            io.at
           FROM regwatch.item_outcomes io
          WHERE ((io.list_name = COALESCE(d.list_name, r.list_name)) AND (io.tax_id = COALESCE(d.tax_id, r.tax_id)))
          ORDER BY io.at DESC
         LIMIT 1) o ON (true))
     LEFT JOIN regwatch.business_profiles bp ON ((bp.tax_id = COALESCE(d.tax_id, r.tax_id))))
     LEFT JOIN regwatch.businesses b ON ((b.tax_id = COALESCE(d.tax_id, r.tax_id))));

COMMENT ON VIEW regwatch.v_watch_status IS 'Desired items next to remote items and the last outcome of each, with a state: in_sync, pending_add, add_failed, pending_remove, not_requested or unmanaged.';

COMMENT ON COLUMN regwatch.v_watch_status.list_name IS 'Name of the list.';

COMMENT ON COLUMN regwatch.v_watch_status.tax_id IS 'Tax base number (a desired tax number is shown reduced to its base).';

COMMENT ON COLUMN regwatch.v_watch_status.desired IS 'The item is in desired_items.';

COMMENT ON COLUMN regwatch.v_watch_status.watched IS 'The item is on the remote list (as last read).';

COMMENT ON COLUMN regwatch.v_watch_status.added_at IS 'Day watching started, from the registry.';

COMMENT ON COLUMN regwatch.v_watch_status.last_op IS 'Latest operation tried on the item: add or remove.';

COMMENT ON COLUMN regwatch.v_watch_status.last_code IS 'Item code of that operation; null when it succeeded.';

COMMENT ON COLUMN regwatch.v_watch_status.last_message IS 'Explanation of that outcome.';

COMMENT ON COLUMN regwatch.v_watch_status.last_outcome_at IS 'When that outcome was recorded.';

COMMENT ON COLUMN regwatch.v_watch_status.state IS 'in_sync (desired and watched), pending_add, add_failed (last add refused), pending_remove (watched, asked for by regwatch, no longer desired, list prunes), not_requested (watched on a managed list, never asked for by regwatch: put there at the registry by hand; reported, never removed) or unmanaged (watched on a list regwatch does not manage or prune).';

COMMENT ON COLUMN regwatch.v_watch_status.business_name IS 'Best known name: business_profiles.name, else businesses.full_name.';

CREATE TABLE regwatch.worker_heartbeats (
    id text NOT NULL,
    lock_ids text[] DEFAULT '{}'::text[] NOT NULL,
    host text NOT NULL,
    pid integer NOT NULL,
    started_at timestamp with time zone DEFAULT now() NOT NULL,
    heartbeat_at timestamp with time zone DEFAULT now() NOT NULL,
    concurrency integer NOT NULL,
    jobs_running integer DEFAULT 0 NOT NULL,
    jobs_done integer DEFAULT 0 NOT NULL,
    jobs_failed integer DEFAULT 0 NOT NULL,
    stopped_at timestamp with time zone,
    stop_reason text,
    CONSTRAINT worker_heartbeats_stop_reason CHECK ((stop_reason = ANY (ARRAY['stopped'::text, 'lease expired'::text])))
);

COMMENT ON TABLE regwatch.worker_heartbeats IS 'Queue worker processes of a fleet and when each last said it was alive; only the fleet''s home schema has rows.';

COMMENT ON COLUMN regwatch.worker_heartbeats.id IS 'The process''s worker pool id in the job queue.';

COMMENT ON COLUMN regwatch.worker_heartbeats.lock_ids IS 'Ids its workers write in the queue''s locked_by; unlocked together when its lease runs out.';

COMMENT ON COLUMN regwatch.worker_heartbeats.host IS 'Host name of the machine the process runs on.';

COMMENT ON COLUMN regwatch.worker_heartbeats.pid IS 'Process id on that host.';

COMMENT ON COLUMN regwatch.worker_heartbeats.started_at IS 'When the process started taking jobs.';

COMMENT ON COLUMN regwatch.worker_heartbeats.heartbeat_at IS 'Last heartbeat; older than REGWATCH_JOB_LEASE_S means the process is taken for dead.';

COMMENT ON COLUMN regwatch.worker_heartbeats.concurrency IS 'Jobs it runs at once at most (worker --concurrency).';

COMMENT ON COLUMN regwatch.worker_heartbeats.jobs_running IS 'Jobs running at the last heartbeat.';

COMMENT ON COLUMN regwatch.worker_heartbeats.jobs_done IS 'Jobs it finished successfully since it started.';

COMMENT ON COLUMN regwatch.worker_heartbeats.jobs_failed IS 'Job attempts that failed in it since it started (each is retried until its attempts run out).';

COMMENT ON COLUMN regwatch.worker_heartbeats.stopped_at IS 'When it stopped, or was found dead by another worker; null while it runs.';

COMMENT ON COLUMN regwatch.worker_heartbeats.stop_reason IS 'stopped (a clean stop) or lease expired (another worker found its heartbeat too old and released its jobs).';

ALTER TABLE ONLY regwatch.alert_deliveries ALTER COLUMN id SET DEFAULT nextval('regwatch.alert_deliveries_id_seq'::regclass);

ALTER TABLE ONLY regwatch.alert_events ALTER COLUMN id SET DEFAULT nextval('regwatch.alert_events_id_seq'::regclass);

ALTER TABLE ONLY regwatch.alert_rules ALTER COLUMN id SET DEFAULT nextval('regwatch.alert_rules_id_seq'::regclass);

ALTER TABLE ONLY regwatch.alerts ALTER COLUMN id SET DEFAULT nextval('regwatch.alerts_id_seq'::regclass);

ALTER TABLE ONLY regwatch.changes ALTER COLUMN id SET DEFAULT nextval('regwatch.changes_id_seq'::regclass);

ALTER TABLE ONLY regwatch.console_login_failures ALTER COLUMN id SET DEFAULT nextval('regwatch.console_login_failures_id_seq'::regclass);

ALTER TABLE ONLY regwatch.console_users ALTER COLUMN id SET DEFAULT nextval('regwatch.console_users_id_seq'::regclass);

ALTER TABLE ONLY regwatch.invalid_items ALTER COLUMN id SET DEFAULT nextval('regwatch.invalid_items_id_seq'::regclass);

ALTER TABLE ONLY regwatch.payee_verifications ALTER COLUMN id SET DEFAULT nextval('regwatch.payee_verifications_id_seq'::regclass);

ALTER TABLE ONLY regwatch.payment_checks ALTER COLUMN id SET DEFAULT nextval('regwatch.payment_checks_id_seq'::regclass);

ALTER TABLE ONLY regwatch.retention_runs ALTER COLUMN id SET DEFAULT nextval('regwatch.retention_runs_id_seq'::regclass);

ALTER TABLE ONLY regwatch.runs ALTER COLUMN id SET DEFAULT nextval('regwatch.runs_id_seq'::regclass);

ALTER TABLE ONLY regwatch.search_bank_accounts ALTER COLUMN id SET DEFAULT nextval('regwatch.search_bank_accounts_id_seq'::regclass);

ALTER TABLE ONLY regwatch.alert_deliveries
    ADD CONSTRAINT alert_deliveries_message_id UNIQUE (message_id);

ALTER TABLE ONLY regwatch.alert_deliveries
    ADD CONSTRAINT alert_deliveries_pkey PRIMARY KEY (id);

ALTER TABLE ONLY regwatch.alert_delivery_health
    ADD CONSTRAINT alert_delivery_health_pkey PRIMARY KEY (id);

ALTER TABLE ONLY regwatch.alert_events
    ADD CONSTRAINT alert_events_pkey PRIMARY KEY (id);

ALTER TABLE ONLY regwatch.alert_rules
    ADD CONSTRAINT alert_rules_pkey PRIMARY KEY (id);

ALTER TABLE ONLY regwatch.alert_scans
    ADD CONSTRAINT alert_scans_pkey PRIMARY KEY (run_id);

ALTER TABLE ONLY regwatch.alerts
    ADD CONSTRAINT alerts_pkey PRIMARY KEY (id);

ALTER TABLE ONLY regwatch.alerts
    ADD CONSTRAINT alerts_rule_change UNIQUE (rule_id, change_id);

ALTER TABLE ONLY regwatch.api_usage
    ADD CONSTRAINT api_usage_day_api_endpoint_pk PRIMARY KEY (day, api, endpoint);

ALTER TABLE ONLY regwatch.business_profiles
    ADD CONSTRAINT business_profiles_pkey PRIMARY KEY (tax_id);

ALTER TABLE ONLY regwatch.businesses
    ADD CONSTRAINT businesses_pkey PRIMARY KEY (tax_id);

ALTER TABLE ONLY regwatch.change_files
    ADD CONSTRAINT change_files_pkey PRIMARY KEY (path);

ALTER TABLE ONLY regwatch.change_sources
    ADD CONSTRAINT change_sources_change_id_list_key_pk PRIMARY KEY (change_id, list_key);

ALTER TABLE ONLY regwatch.change_values
    ADD CONSTRAINT change_values_change_id_heading_pk PRIMARY KEY (change_id, heading);

ALTER TABLE ONLY regwatch.changes
    ADD CONSTRAINT changes_identity UNIQUE (tax_id, change_date, chapter, path);

ALTER TABLE ONLY regwatch.changes
    ADD CONSTRAINT changes_pkey PRIMARY KEY (id);

ALTER TABLE ONLY regwatch.console_login_addresses
    ADD CONSTRAINT console_login_addresses_pkey PRIMARY KEY (user_id, address);

ALTER TABLE ONLY regwatch.console_login_failures
    ADD CONSTRAINT console_login_failures_pkey PRIMARY KEY (id);

ALTER TABLE ONLY regwatch.console_oidc_logins
    ADD CONSTRAINT console_oidc_logins_pkey PRIMARY KEY (id);

ALTER TABLE ONLY regwatch.console_sessions
    ADD CONSTRAINT console_sessions_pkey PRIMARY KEY (id);

ALTER TABLE ONLY regwatch.console_user_accounts
    ADD CONSTRAINT console_user_accounts_pkey PRIMARY KEY (user_id, account);

ALTER TABLE ONLY regwatch.console_users
    ADD CONSTRAINT console_users_external_subject UNIQUE (external_subject);

ALTER TABLE ONLY regwatch.console_users
    ADD CONSTRAINT console_users_name UNIQUE (name);

ALTER TABLE ONLY regwatch.console_users
    ADD CONSTRAINT console_users_pkey PRIMARY KEY (id);

ALTER TABLE ONLY regwatch.coverage
    ADD CONSTRAINT coverage_list_key_start_date_end_date_pk PRIMARY KEY (list_key, start_date, end_date);

ALTER TABLE ONLY regwatch.desired_items
    ADD CONSTRAINT desired_items_list_name_tax_id_pk PRIMARY KEY (list_name, tax_id);

ALTER TABLE ONLY regwatch.desired_lists
    ADD CONSTRAINT desired_lists_pkey PRIMARY KEY (list_name);

ALTER TABLE ONLY regwatch.dropped_lists
    ADD CONSTRAINT dropped_lists_pkey PRIMARY KEY (list_name);

ALTER TABLE ONLY regwatch.given_names
    ADD CONSTRAINT given_names_pkey PRIMARY KEY (tax_id, source);

ALTER TABLE ONLY regwatch.held_uploads
    ADD CONSTRAINT held_uploads_pkey PRIMARY KEY (id);

ALTER TABLE ONLY regwatch.inbox_open_changes
    ADD CONSTRAINT inbox_open_changes_pkey PRIMARY KEY (change_id);

ALTER TABLE ONLY regwatch.invalid_items
    ADD CONSTRAINT invalid_items_pkey PRIMARY KEY (id);

ALTER TABLE ONLY regwatch.item_outcomes
    ADD CONSTRAINT item_outcomes_list_name_tax_id_op_pk PRIMARY KEY (list_name, tax_id, op);

ALTER TABLE ONLY regwatch.key_refusals
    ADD CONSTRAINT key_refusals_pkey PRIMARY KEY (key_variable);

ALTER TABLE ONLY regwatch.managed_items
    ADD CONSTRAINT managed_items_list_key_tax_id_pk PRIMARY KEY (list_key, tax_id);

ALTER TABLE ONLY regwatch.managed_lists
    ADD CONSTRAINT managed_lists_pkey PRIMARY KEY (list_key);

ALTER TABLE ONLY regwatch.payee_verifications
    ADD CONSTRAINT payee_verifications_pkey PRIMARY KEY (id);

ALTER TABLE ONLY regwatch.payment_batches
    ADD CONSTRAINT payment_batches_pkey PRIMARY KEY (id);

ALTER TABLE ONLY regwatch.payment_checks
    ADD CONSTRAINT payment_checks_pkey PRIMARY KEY (id);

ALTER TABLE ONLY regwatch.payment_column_choices
    ADD CONSTRAINT payment_column_choices_pkey PRIMARY KEY (signature);

ALTER TABLE ONLY regwatch.reader_roles
    ADD CONSTRAINT reader_roles_pkey PRIMARY KEY (role);

ALTER TABLE ONLY regwatch.registry_descriptions
    ADD CONSTRAINT registry_descriptions_pkey PRIMARY KEY (watch_url);

ALTER TABLE ONLY regwatch.retention_runs
    ADD CONSTRAINT retention_runs_pkey PRIMARY KEY (id);

ALTER TABLE ONLY regwatch.run_lease
    ADD CONSTRAINT run_lease_pkey PRIMARY KEY (id);

ALTER TABLE ONLY regwatch.runs
    ADD CONSTRAINT runs_pkey PRIMARY KEY (id);

ALTER TABLE ONLY regwatch.search_bank_accounts
    ADD CONSTRAINT search_bank_accounts_pkey PRIMARY KEY (id);

ALTER TABLE ONLY regwatch.seen_headings
    ADD CONSTRAINT seen_headings_pkey PRIMARY KEY (heading);

ALTER TABLE ONLY regwatch.watch_lists
    ADD CONSTRAINT watch_lists_pkey PRIMARY KEY (list_key);

ALTER TABLE ONLY regwatch.watched_items
    ADD CONSTRAINT watched_items_list_key_tax_id_pk PRIMARY KEY (list_key, tax_id);

ALTER TABLE ONLY regwatch.worker_heartbeats
    ADD CONSTRAINT worker_heartbeats_pkey PRIMARY KEY (id);

CREATE INDEX alert_deliveries_alerts ON regwatch.alert_deliveries USING gin (alert_ids);

CREATE INDEX alert_deliveries_due ON regwatch.alert_deliveries USING btree (next_attempt_at) WHERE (status = 'pending'::text);

CREATE INDEX alert_deliveries_lease ON regwatch.alert_deliveries USING btree (lease_until) WHERE ((status = 'pending'::text) AND (lease_until IS NOT NULL));

CREATE INDEX alert_deliveries_order ON regwatch.alert_deliveries USING btree (oldest_change, id) WHERE (status = 'pending'::text);

CREATE INDEX alert_deliveries_pending_businesses ON regwatch.alert_deliveries USING gin (tax_ids) WITH (fastupdate=off) WHERE (status = 'pending'::text);

CREATE INDEX alert_events_alert ON regwatch.alert_events USING btree (alert_id, id) WHERE (alert_id IS NOT NULL);

CREATE INDEX alert_events_rule ON regwatch.alert_events USING btree (rule_id, id);

CREATE UNIQUE INDEX alert_rules_name ON regwatch.alert_rules USING btree (name) WHERE (removed_at IS NULL);

CREATE INDEX alerts_change ON regwatch.alerts USING btree (change_id);

CREATE INDEX alerts_open_assigned ON regwatch.alerts USING btree (assigned_to, change_id) WHERE (status = 'open'::text);

CREATE INDEX alerts_open_change ON regwatch.alerts USING btree (change_id) INCLUDE (raised_at, assigned_to) WHERE (status = 'open'::text);

CREATE INDEX alerts_open_newest ON regwatch.alerts USING btree (id DESC) WHERE (status = 'open'::text);

CREATE INDEX alerts_open_raised ON regwatch.alerts USING btree (raised_at) WHERE (status = 'open'::text);

CREATE INDEX alerts_status ON regwatch.alerts USING btree (status);

CREATE INDEX alerts_status_change ON regwatch.alerts USING btree (status, change_id DESC) INCLUDE (id, rule_id, assigned_to, raised_at);

CREATE INDEX business_profiles_bank_accounts ON regwatch.business_profiles USING gin ((((headings -> 'bank_accounts'::text) -> 'value'::text)) jsonb_path_ops);

CREATE INDEX businesses_bank_accounts ON regwatch.businesses USING gin (((record -> 'bank_accounts'::text)) jsonb_path_ops);

CREATE INDEX change_sources_first_seen ON regwatch.change_sources USING brin (first_seen_at) WITH (autosummarize='on');

CREATE INDEX change_sources_list ON regwatch.change_sources USING btree (list_key);

CREATE INDEX change_values_bank_accounts ON regwatch.change_values USING gin (new_value jsonb_path_ops) WHERE (heading = 'bank_accounts'::text);

CREATE INDEX change_values_bank_accounts_old ON regwatch.change_values USING gin (old_value jsonb_path_ops) WHERE (heading = 'bank_accounts'::text);

CREATE INDEX change_values_heading_date ON regwatch.change_values USING btree (heading, change_date);

CREATE INDEX change_values_high_status ON regwatch.change_values USING btree (change_id) WHERE ((heading = ANY (ARRAY['status'::text, 'status_code'::text])) AND ((new_value #>> '{}'::text[]) = ANY (ARRAY['0'::text, '2'::text])));

CREATE INDEX change_values_tax_date ON regwatch.change_values USING btree (tax_id, change_date);

CREATE INDEX changes_bank_accounts ON regwatch.changes USING btree (id) WHERE ('bank_accounts'::text = ANY (changed_headings));

CREATE INDEX changes_feed_order ON regwatch.changes USING btree (change_date DESC, tax_id);

CREATE INDEX changes_high_headings ON regwatch.changes USING btree (id) WHERE (changed_headings && ARRAY['bank_accounts'::text, 'long_name'::text, 'short_name'::text, 'full_name'::text, 'name'::text]);

CREATE INDEX console_login_failures_address ON regwatch.console_login_failures USING btree (address, at);

CREATE INDEX console_login_failures_who ON regwatch.console_login_failures USING btree (username, address, at);

CREATE INDEX console_oidc_logins_address ON regwatch.console_oidc_logins USING btree (address, created_at);

CREATE INDEX console_oidc_logins_expires ON regwatch.console_oidc_logins USING btree (expires_at);

CREATE INDEX console_sessions_expires ON regwatch.console_sessions USING btree (expires_at);

CREATE INDEX console_sessions_user ON regwatch.console_sessions USING btree (user_id);

CREATE INDEX given_names_newest ON regwatch.given_names USING btree (tax_id, given_at DESC);

CREATE INDEX invalid_items_open ON regwatch.invalid_items USING btree (list_key, window_start) WHERE (resolved_at IS NULL);

CREATE INDEX payee_verifications_payee ON regwatch.payee_verifications USING btree (tax_id, bank_account, verified_at);

CREATE INDEX payment_batches_checked_at ON regwatch.payment_batches USING btree (checked_at);

CREATE INDEX payment_checks_batch ON regwatch.payment_checks USING btree (batch_id);

CREATE INDEX payment_checks_checked_at ON regwatch.payment_checks USING btree (checked_at);

CREATE INDEX payment_checks_tax_base ON regwatch.payment_checks USING btree (tax_base, checked_at) WHERE (tax_base IS NOT NULL);

CREATE INDEX retention_runs_ran_at ON regwatch.retention_runs USING btree (ran_at);

CREATE INDEX runs_kind_started ON regwatch.runs USING btree (kind, started_at);

CREATE INDEX search_bank_accounts_tax_id ON regwatch.search_bank_accounts USING btree (tax_id, id);

CREATE INDEX worker_heartbeats_live ON regwatch.worker_heartbeats USING btree (heartbeat_at) WHERE (stopped_at IS NULL);

CREATE TRIGGER alerts_inbox_delete AFTER DELETE ON regwatch.alerts REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION regwatch.alerts_keep_inbox_open_changes();

CREATE TRIGGER alerts_inbox_insert AFTER INSERT ON regwatch.alerts REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION regwatch.alerts_keep_inbox_open_changes();

CREATE TRIGGER alerts_inbox_truncate AFTER TRUNCATE ON regwatch.alerts FOR EACH STATEMENT EXECUTE FUNCTION regwatch.alerts_keep_inbox_open_changes();

CREATE TRIGGER alerts_inbox_update AFTER UPDATE ON regwatch.alerts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION regwatch.alerts_keep_inbox_open_changes();

CREATE TRIGGER businesses_keep_bank_accounts AFTER INSERT OR UPDATE OF record, fetched_at ON regwatch.businesses FOR EACH ROW EXECUTE FUNCTION regwatch.keep_search_bank_accounts();

CREATE TRIGGER change_values_inbox_delete AFTER DELETE ON regwatch.change_values REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION regwatch.changes_keep_inbox_open_changes();

CREATE TRIGGER change_values_inbox_insert AFTER INSERT ON regwatch.change_values REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION regwatch.changes_keep_inbox_open_changes();

CREATE TRIGGER change_values_inbox_update AFTER UPDATE ON regwatch.change_values REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION regwatch.changes_keep_inbox_open_changes();

CREATE TRIGGER changes_inbox_update AFTER UPDATE ON regwatch.changes REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION regwatch.changes_keep_inbox_open_changes();

ALTER TABLE ONLY regwatch.alert_deliveries
    ADD CONSTRAINT alert_deliveries_rule_id_fkey FOREIGN KEY (rule_id) REFERENCES regwatch.alert_rules(id) ON DELETE CASCADE;

ALTER TABLE ONLY regwatch.alert_events
    ADD CONSTRAINT alert_events_alert_id_fkey FOREIGN KEY (alert_id) REFERENCES regwatch.alerts(id) ON DELETE CASCADE;

ALTER TABLE ONLY regwatch.alert_events
    ADD CONSTRAINT alert_events_rule_id_fkey FOREIGN KEY (rule_id) REFERENCES regwatch.alert_rules(id) ON DELETE CASCADE;

ALTER TABLE ONLY regwatch.alerts
    ADD CONSTRAINT alerts_change_id_fkey FOREIGN KEY (change_id) REFERENCES regwatch.changes(id) ON DELETE CASCADE;

ALTER TABLE ONLY regwatch.alerts
    ADD CONSTRAINT alerts_rule_id_fkey FOREIGN KEY (rule_id) REFERENCES regwatch.alert_rules(id) ON DELETE CASCADE;

ALTER TABLE ONLY regwatch.console_login_addresses
    ADD CONSTRAINT console_login_addresses_user_id_console_users_id_fk FOREIGN KEY (user_id) REFERENCES regwatch.console_users(id) ON DELETE CASCADE;

ALTER TABLE ONLY regwatch.console_sessions
    ADD CONSTRAINT console_sessions_user_id_fkey FOREIGN KEY (user_id) REFERENCES regwatch.console_users(id) ON DELETE CASCADE;

ALTER TABLE ONLY regwatch.console_user_accounts
    ADD CONSTRAINT console_user_accounts_user_id_fkey FOREIGN KEY (user_id) REFERENCES regwatch.console_users(id) ON DELETE CASCADE;

ALTER TABLE ONLY regwatch.desired_items
    ADD CONSTRAINT desired_items_list_name_desired_lists_list_name_fk FOREIGN KEY (list_name) REFERENCES regwatch.desired_lists(list_name) ON UPDATE CASCADE ON DELETE CASCADE;

ALTER TABLE ONLY regwatch.managed_items
    ADD CONSTRAINT managed_items_list_key_fk FOREIGN KEY (list_key) REFERENCES regwatch.managed_lists(list_key) ON DELETE CASCADE;

ALTER TABLE ONLY regwatch.payment_batches
    ADD CONSTRAINT payment_batches_rechecked_from_fkey FOREIGN KEY (rechecked_from) REFERENCES regwatch.payment_batches(id) ON DELETE SET NULL;

ALTER TABLE ONLY regwatch.payment_checks
    ADD CONSTRAINT payment_checks_batch_id_fkey FOREIGN KEY (batch_id) REFERENCES regwatch.payment_batches(id) ON DELETE CASCADE;
