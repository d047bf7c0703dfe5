-- The payment guard fails closed. Three things it needs that the schema did not hold:
-- 1. every list of bank accounts a business's search record showed, from the first read that
--    showed it (businesses keeps only the newest record, so an account that first appears in a
--    newer record could not be told from one listed all along, and a re-read re-dated it);
-- 2. v_bank_accounts dating an account by the first record that listed it when an older one of
--    the same business did not, ordering same-day changes by their chain (day_order) rather
--    than storage order, and reading a change's missing new value as unknown, not as "no accounts";
-- 3. payment_checks recording the next step of every verdict, and the verdict
--    account_change_unverified (a bank_accounts change whose values are not known).
CREATE TABLE "regwatch"."search_bank_accounts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tax_id" text NOT NULL,
	"seen_at" timestamp with time zone NOT NULL,
	"bank_accounts" text[] NOT NULL
);
--> statement-breakpoint
CREATE INDEX "search_bank_accounts_tax_id" ON "regwatch"."search_bank_accounts" USING btree ("tax_id", "id");
--> statement-breakpoint
-- The accounts a value lists (an array of {"bank_account": ...} objects or of strings, or one of
-- either), canonical, sorted and without repeats; what is no account is left out.
CREATE FUNCTION regwatch.listed_bank_accounts(value jsonb) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
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
--> statement-breakpoint
-- The accounts a search record lists. A company's record always has the field, so one without it
-- (an answer that left it out) lists none rather than nothing known: a re-read that drops the
-- field must not leave an older list standing as current. Null for other businesses' records
-- without it (only companies have accounts in the search interface).
CREATE FUNCTION regwatch.record_bank_accounts(record jsonb) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN jsonb_typeof(record -> 'bank_accounts') = 'array'
      THEN regwatch.listed_bank_accounts(record -> 'bank_accounts')
    WHEN record ->> 'type' = 'companies' THEN '{}'::text[]
  END
$$;
--> statement-breakpoint
-- Whoever writes businesses (lookup, watch add, payments check --online, another system), the
-- history learns of it here. A row is added when the list differs from the last one kept, or when
-- a bank_accounts change dated on or after that row lies between it and this read (on a later
-- day): then this read is the first to show the list again after the change, and the account it
-- lists is dated by it rather than by every later read.
CREATE FUNCTION regwatch.keep_search_bank_accounts() RETURNS trigger
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
       NEW.fetched_at::date > last_seen::date AND EXISTS (
         SELECT 1 FROM regwatch.change_values cv
         WHERE cv.tax_id = NEW.tax_id AND cv.heading = 'bank_accounts'
           AND cv.change_date >= last_seen::date)) THEN
    INSERT INTO regwatch.search_bank_accounts (tax_id, seen_at, bank_accounts)
    VALUES (NEW.tax_id, NEW.fetched_at, listed);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "businesses_keep_bank_accounts" AFTER INSERT OR UPDATE OF "record", "fetched_at"
ON "regwatch"."businesses" FOR EACH ROW EXECUTE FUNCTION regwatch.keep_search_bank_accounts();
--> statement-breakpoint
-- What was read before this migration: the cached record, as of its read.
INSERT INTO regwatch.search_bank_accounts (tax_id, seen_at, bank_accounts)
SELECT tax_id, fetched_at, regwatch.record_bank_accounts(record)
FROM regwatch.businesses
WHERE regwatch.record_bank_accounts(record) IS NOT NULL
ORDER BY fetched_at, tax_id;
--> statement-breakpoint
DROP VIEW regwatch.v_bank_accounts;
--> statement-breakpoint
DROP FUNCTION regwatch.bank_accounts_of_businesses(text[]);
--> statement-breakpoint
-- As in 0008, plus: search records from their history (a company's record without accounts lists
-- none); snapshots of a business in the order they
-- held (day, then baseline < search history < current search record < profile < change, and
-- same-day changes by day_order, an ambiguous newest day leaving each of its values possibly
-- current); an account counts as added where a snapshot lists it and the
-- one before it did not (the business's first snapshot adds nothing), or where a change's new
-- value lists it and its old value did not; a change or profile value that is no list of accounts
-- (null) is no snapshot at all.
CREATE FUNCTION regwatch.bank_accounts_of_businesses(tax_ids text[])
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
  SELECT tax_id, seen_at::date, 1, NULL, id, NULL, 'search', to_jsonb(bank_accounts), false
  FROM regwatch.search_bank_accounts
  WHERE tax_ids IS NULL OR tax_id = ANY (tax_ids)
  UNION ALL
  SELECT tax_id, fetched_at::date, 2, NULL, 0, NULL, 'search', to_jsonb(regwatch.record_bank_accounts(record)), false
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
--> statement-breakpoint
CREATE VIEW regwatch.v_bank_accounts AS
SELECT * FROM regwatch.bank_accounts_of_businesses(NULL);
--> statement-breakpoint
ALTER TABLE "regwatch"."payment_checks" ADD COLUMN "next_step" text;
--> statement-breakpoint
ALTER TABLE "regwatch"."payment_checks" DROP CONSTRAINT "payment_checks_verdict";
--> statement-breakpoint
ALTER TABLE "regwatch"."payment_checks" ADD CONSTRAINT "payment_checks_verdict" CHECK ("verdict" in ('invalid_tax_id', 'invalid_account', 'business_ceased', 'business_suspended', 'account_not_registered', 'account_recently_changed', 'account_change_unverified', 'unknown_business', 'not_watched', 'ok'));
--> statement-breakpoint
COMMENT ON TABLE regwatch.search_bank_accounts IS 'Every list of bank accounts a business''s search record showed, from the first read that showed it (a trigger on businesses adds a row when the list differs from the last one, or when a bank_accounts change came between): v_bank_accounts dates an account by the first record that listed it.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.search_bank_accounts.id IS 'Row identifier; orders the lists of one business.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.search_bank_accounts.tax_id IS 'Tax base number of the business (8 digits).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.search_bank_accounts.seen_at IS 'When the record showing this list was read (businesses.fetched_at of that read).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.search_bank_accounts.bank_accounts IS 'The accounts the record listed, canonical (xxxxxxxx-xxxxxxxx-xxxxxxxx), sorted; empty when it listed none.';--> statement-breakpoint
COMMENT ON FUNCTION regwatch.record_bank_accounts(jsonb) IS 'The canonical accounts a search record lists; empty for a company''s record without the field, null for other records without it.';--> statement-breakpoint
COMMENT ON FUNCTION regwatch.listed_bank_accounts(jsonb) IS 'The canonical accounts a value lists (an array of {"bank_account": ...} objects or strings, or one of either), sorted and without repeats; empty when it lists none.';--> statement-breakpoint
COMMENT ON FUNCTION regwatch.keep_search_bank_accounts() IS 'Trigger of businesses: keeps search_bank_accounts, the history of the accounts each business''s record listed.';--> statement-breakpoint
COMMENT ON FUNCTION regwatch.bank_accounts_of_businesses(text[]) IS 'The rows of v_bank_accounts for the given tax base numbers (all when null); payments check reads only its batch''s businesses through it.';--> statement-breakpoint
COMMENT ON VIEW regwatch.v_bank_accounts IS 'One row per business and bank account known from any source (search records and their history, profiles and their baselines, bank_accounts change values), with when it was seen, whether the newest source still lists it and when it was added. payments check reads it.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_bank_accounts.tax_id IS 'Tax base number of the business (8 digits).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_bank_accounts.bank_account IS 'The account in canonical form: 24 digits as xxxxxxxx-xxxxxxxx-xxxxxxxx (a 16-digit number ends in -00000000).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_bank_accounts.first_seen IS 'Earliest day a source showed the business holding the account (record read, change date, or the day before a change that replaced it).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_bank_accounts.last_seen IS 'Latest day a source showed the business holding the account.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_bank_accounts.currently_registered IS 'True when the newest list of the business''s accounts holds the account (by date; on one day a change beats a profile, a profile a search record; same-day changes in their chained order; when the newest day''s changes are in no known order, an account any of them lists).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_bank_accounts.added_on IS 'Latest day the account was added: a bank_accounts change whose old value lacked it, or the first record (search, profile, change) that listed it when the business''s record before did not. Null when it was listed from the business''s first record on.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_bank_accounts.sources IS 'Sources that showed the account: baseline, search, profile, change.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_bank_accounts.added_source IS 'Source that showed the addition of added_on: change, search, profile or baseline; null when added_on is.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_checks.verdict IS 'invalid_tax_id, invalid_account, business_ceased, business_suspended, account_not_registered, account_recently_changed, account_change_unverified, unknown_business, not_watched or ok.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_checks.next_step IS 'What to do before the payment may go (confirm the account with the supplier, fetch a change file, ...); null for ok.';
