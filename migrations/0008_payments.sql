-- The payment guard: every bank account a business is known to hold, from every source, and the
-- (opt-in) record of payment checks.
CREATE TABLE "regwatch"."payment_checks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"batch_id" uuid NOT NULL,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"line" integer NOT NULL,
	"tax_id" text NOT NULL,
	"bank_account" text NOT NULL,
	"verdict" text NOT NULL,
	"detail" text,
	"amount" numeric,
	"currency" text,
	"reference" text,
	CONSTRAINT "payment_checks_verdict" CHECK ("regwatch"."payment_checks"."verdict" in ('invalid_tax_id', 'invalid_account', 'business_ceased', 'business_suspended', 'account_not_registered', 'account_recently_changed', 'unknown_business', 'not_watched', 'ok'))
);
--> statement-breakpoint
CREATE INDEX "payment_checks_batch" ON "regwatch"."payment_checks" USING btree ("batch_id");--> statement-breakpoint
CREATE INDEX "payment_checks_checked_at" ON "regwatch"."payment_checks" USING btree ("checked_at");--> statement-breakpoint
-- Which businesses list an account, found by containment in the registry's own spelling (the
-- payment check names the holder of an account that is not the payee's).
CREATE INDEX "businesses_bank_accounts" ON "regwatch"."businesses" USING gin ((record -> 'bank_accounts') jsonb_path_ops);--> statement-breakpoint
CREATE INDEX "business_profiles_bank_accounts" ON "regwatch"."business_profiles" USING gin ((headings -> 'bank_accounts' -> 'value') jsonb_path_ops);--> statement-breakpoint
CREATE INDEX "change_values_bank_accounts" ON "regwatch"."change_values" USING gin (new_value jsonb_path_ops) WHERE heading = 'bank_accounts';--> statement-breakpoint
-- One spelling of an account for every comparison: 24 digits in three hyphenated groups (a
-- 16-digit number padded with eight zeros, an IBAN reduced to the number it carries). One
-- expression, so the planner inlines it; the registry's own spelling is already canonical and
-- takes the short way (regular expressions dominate the cost of the view).
CREATE FUNCTION regwatch.canonical_bank_account(value text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN value ~ '^\d{8}-\d{8}-\d{8}$' THEN value
    ELSE regexp_replace(
           rpad(substring(translate(upper(value), E' -\t', '') || '00000000'
                          FROM '^(?:HU\d\d)?(\d{16}(?:\d{8})?)00000000$'), 24, '0'),
           '^(\d{8})(\d{8})(\d{8})$', '\1-\2-\3')
  END
$$;
--> statement-breakpoint
-- The accounts of some businesses (all when tax_ids is null), as v_bank_accounts shows them. A
-- function so that the payment check computes only the businesses of its batch; the planner
-- inlines it, so the view costs the same as if the query were written in it.
CREATE FUNCTION regwatch.bank_accounts_of_businesses(tax_ids text[])
RETURNS TABLE (tax_id text, bank_account text, first_seen date, last_seen date,
               currently_registered boolean, added_on date, sources text[])
LANGUAGE sql STABLE PARALLEL SAFE AS $$
WITH snapshots AS (
  -- Each source's full list of a business's accounts on a day; on one day the later source wins.
  SELECT tax_id, baseline_as_of AS seen_on, 0 AS rank, NULL::bigint AS change_id, 'baseline' AS source,
         baseline -> 'bank_accounts' AS accounts
  FROM regwatch.business_profiles
  WHERE jsonb_typeof(baseline -> 'bank_accounts') = 'array' AND baseline_as_of IS NOT NULL
    AND (tax_ids IS NULL OR tax_id = ANY (tax_ids))
  UNION ALL
  SELECT tax_id, fetched_at::date, 1, NULL, 'search', record -> 'bank_accounts'
  FROM regwatch.businesses
  WHERE jsonb_typeof(record -> 'bank_accounts') = 'array' AND (tax_ids IS NULL OR tax_id = ANY (tax_ids))
  UNION ALL
  SELECT tax_id, (headings -> 'bank_accounts' ->> 'as_of')::date, 2, NULL, 'profile', headings -> 'bank_accounts' -> 'value'
  FROM regwatch.business_profiles
  WHERE headings -> 'bank_accounts' ->> 'as_of' ~ '^\d{4}-\d{2}-\d{2}$' AND (tax_ids IS NULL OR tax_id = ANY (tax_ids))
  UNION ALL
  SELECT tax_id, change_date, 3, change_id, 'change', new_value
  FROM regwatch.change_values
  WHERE heading = 'bank_accounts' AND (tax_ids IS NULL OR tax_id = ANY (tax_ids))
),
latest AS (
  SELECT DISTINCT ON (tax_id) tax_id, seen_on, rank, change_id
  FROM snapshots
  ORDER BY tax_id, seen_on DESC, rank DESC, change_id DESC NULLS LAST
),
listed AS (
  -- A value is an array of {"bank_account": ...} objects or of strings, or one of either.
  SELECT s.tax_id, s.seen_on, s.rank, s.change_id, s.source,
         regwatch.canonical_bank_account(CASE jsonb_typeof(e)
           WHEN 'string' THEN e #>> '{}'
           WHEN 'object' THEN e ->> 'bank_account'
         END) AS bank_account
  FROM snapshots s
  CROSS JOIN LATERAL jsonb_array_elements(CASE jsonb_typeof(s.accounts)
    WHEN 'array' THEN s.accounts
    WHEN 'object' THEN jsonb_build_array(s.accounts)
    WHEN 'string' THEN jsonb_build_array(s.accounts)
    ELSE '[]'::jsonb
  END) e
),
replaced AS (
  SELECT cv.change_id, cv.tax_id, cv.change_date,
         regwatch.canonical_bank_account(CASE jsonb_typeof(e)
           WHEN 'string' THEN e #>> '{}'
           WHEN 'object' THEN e ->> 'bank_account'
         END) AS bank_account
  FROM regwatch.change_values cv
  CROSS JOIN LATERAL jsonb_array_elements(CASE jsonb_typeof(cv.old_value)
    WHEN 'array' THEN cv.old_value
    WHEN 'object' THEN jsonb_build_array(cv.old_value)
    WHEN 'string' THEN jsonb_build_array(cv.old_value)
    ELSE '[]'::jsonb
  END) e
  WHERE cv.heading = 'bank_accounts' AND (tax_ids IS NULL OR cv.tax_id = ANY (tax_ids))
),
sightings AS (
  SELECT l.tax_id, l.bank_account, l.seen_on, l.source,
         l.seen_on = t.seen_on AND l.rank = t.rank AND l.change_id IS NOT DISTINCT FROM t.change_id AS current,
         l.change_id IS NOT NULL AND NOT EXISTS (
           SELECT 1 FROM replaced r WHERE r.change_id = l.change_id AND r.bank_account = l.bank_account
         ) AS added
  FROM listed l
  JOIN latest t ON t.tax_id = l.tax_id
  WHERE l.bank_account IS NOT NULL
  UNION ALL
  -- A value replaced by a change held until the day before it.
  SELECT tax_id, bank_account, change_date - 1, 'change', false, false
  FROM replaced
  WHERE bank_account IS NOT NULL
)
SELECT g.tax_id,
       g.bank_account,
       min(seen_on) AS first_seen,
       max(seen_on) AS last_seen,
       bool_or(current) AS currently_registered,
       max(seen_on) FILTER (WHERE added) AS added_on,
       array_agg(DISTINCT source ORDER BY source) AS sources
FROM sightings g
GROUP BY g.tax_id, g.bank_account
$$;
--> statement-breakpoint
CREATE VIEW regwatch.v_bank_accounts AS
SELECT * FROM regwatch.bank_accounts_of_businesses(NULL);
--> statement-breakpoint
COMMENT ON FUNCTION regwatch.canonical_bank_account(text) IS 'A bank account in the one form regwatch compares: 24 digits as xxxxxxxx-xxxxxxxx-xxxxxxxx (16-digit numbers padded with eight zeros, a Hungarian IBAN reduced to its number); null when the value is not 16 or 24 digits.';--> statement-breakpoint
COMMENT ON FUNCTION regwatch.bank_accounts_of_businesses(text[]) IS 'The rows of v_bank_accounts for the given tax base numbers (all when null); payments check reads only its batch''s businesses through it.';--> statement-breakpoint
COMMENT ON VIEW regwatch.v_bank_accounts IS 'One row per business and bank account known from any source (search records, profiles and their baselines, bank_accounts change values), with when it was seen and whether the newest source still lists it. payments check reads it.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_bank_accounts.tax_id IS 'Tax base number of the business (8 digits).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_bank_accounts.bank_account IS 'The account in canonical form: 24 digits as xxxxxxxx-xxxxxxxx-xxxxxxxx (a 16-digit number ends in -00000000).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_bank_accounts.first_seen IS 'Earliest day a source showed the business holding the account (record read, change date, or the day before a change that replaced it).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_bank_accounts.last_seen IS 'Latest day a source showed the business holding the account.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_bank_accounts.currently_registered IS 'True when the newest list of the business''s accounts (by date; on one day a change beats a profile, a profile a search record) holds the account.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_bank_accounts.added_on IS 'Date of the latest bank_accounts change that added the account; null when no parsed change added it.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_bank_accounts.sources IS 'Sources that showed the account: baseline, search, profile, change.';--> statement-breakpoint
COMMENT ON TABLE regwatch.payment_checks IS 'Payment rows checked by payments check --record (nothing is kept without --record): one row per payment with its verdict.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_checks.id IS 'Row identifier.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_checks.batch_id IS 'One id per run of payments check: the rows of one file share it.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_checks.checked_at IS 'When the batch was checked.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_checks.line IS 'Line number of the payment in the file.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_checks.tax_id IS 'Tax id as the file gave it (tax base number or tax number).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_checks.bank_account IS 'The account in canonical form, or as the file gave it when unreadable.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_checks.verdict IS 'invalid_tax_id, invalid_account, business_ceased, business_suspended, account_not_registered, account_recently_changed, unknown_business, not_watched or ok.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_checks.detail IS 'Why the verdict was given (change date, holder of the account, check-digit problem).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_checks.amount IS 'Amount from the file, when it had one.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_checks.currency IS 'Currency from the file, when it had one.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_checks.reference IS 'Reference from the file, when it had one.';
