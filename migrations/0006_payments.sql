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
-- One spelling of an account for every comparison: 24 digits in three hyphenated groups (a
-- 16-digit number padded with eight zeros, an IBAN reduced to the number it carries).
CREATE FUNCTION regwatch.canonical_bank_account(value text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE length(d)
           WHEN 16 THEN substr(d, 1, 8) || '-' || substr(d, 9, 8) || '-00000000'
           WHEN 24 THEN substr(d, 1, 8) || '-' || substr(d, 9, 8) || '-' || substr(d, 17, 8)
         END
  FROM (SELECT regexp_replace(regexp_replace(upper(value), '^\s*HU\s*\d\s*\d', ''), '[\s-]', '', 'g') AS d) x
  WHERE d ~ '^\d+$'
$$;
--> statement-breakpoint
-- The accounts a heading value lists, whether written as [{"bank_account": ...}], as plain
-- strings, or as one of either.
CREATE FUNCTION regwatch.bank_accounts_of(value jsonb) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT a ORDER BY a) FILTER (WHERE a IS NOT NULL), '{}')
  FROM (
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
  ) x
$$;
--> statement-breakpoint
CREATE VIEW regwatch.v_bank_accounts AS
WITH snapshots AS (
  -- Each source's full list of a business's accounts on a day; on one day the later source wins.
  SELECT tax_id, baseline_as_of AS seen_on, 0 AS rank, 'baseline' AS source, baseline -> 'bank_accounts' AS accounts
  FROM regwatch.business_profiles
  WHERE jsonb_typeof(baseline -> 'bank_accounts') = 'array' AND baseline_as_of IS NOT NULL
  UNION ALL
  SELECT tax_id, fetched_at::date, 1, 'search', record -> 'bank_accounts'
  FROM regwatch.businesses
  WHERE jsonb_typeof(record -> 'bank_accounts') = 'array'
  UNION ALL
  SELECT tax_id, (headings -> 'bank_accounts' ->> 'as_of')::date, 2, 'profile', headings -> 'bank_accounts' -> 'value'
  FROM regwatch.business_profiles
  WHERE headings -> 'bank_accounts' ->> 'as_of' ~ '^\d{4}-\d{2}-\d{2}$'
  UNION ALL
  SELECT tax_id, change_date, 3, 'change', new_value
  FROM regwatch.change_values
  WHERE heading = 'bank_accounts'
),
latest AS (
  SELECT DISTINCT ON (tax_id) tax_id, regwatch.bank_accounts_of(accounts) AS accounts
  FROM snapshots
  ORDER BY tax_id, seen_on DESC, rank DESC
),
additions AS (
  SELECT cv.tax_id, a AS bank_account, max(cv.change_date) AS added_on
  FROM regwatch.change_values cv, unnest(regwatch.bank_accounts_of(cv.new_value)) a
  WHERE cv.heading = 'bank_accounts' AND NOT a = ANY (regwatch.bank_accounts_of(cv.old_value))
  GROUP BY cv.tax_id, a
),
sightings AS (
  SELECT s.tax_id, a AS bank_account, s.seen_on, s.source
  FROM snapshots s, unnest(regwatch.bank_accounts_of(s.accounts)) a
  UNION ALL
  -- A value replaced by a change held until the day before it.
  SELECT cv.tax_id, a, cv.change_date - 1, 'change'
  FROM regwatch.change_values cv, unnest(regwatch.bank_accounts_of(cv.old_value)) a
  WHERE cv.heading = 'bank_accounts'
)
SELECT s.tax_id,
       s.bank_account,
       min(s.seen_on) AS first_seen,
       max(s.seen_on) AS last_seen,
       coalesce(bool_or(s.bank_account = ANY (l.accounts)), false) AS currently_registered,
       ad.added_on,
       array_agg(DISTINCT s.source ORDER BY s.source) AS sources
FROM sightings s
LEFT JOIN latest l ON l.tax_id = s.tax_id
LEFT JOIN additions ad ON ad.tax_id = s.tax_id AND ad.bank_account = s.bank_account
GROUP BY s.tax_id, s.bank_account, ad.added_on;
--> statement-breakpoint
COMMENT ON FUNCTION regwatch.canonical_bank_account(text) IS 'A bank account in the one form regwatch compares: 24 digits as xxxxxxxx-xxxxxxxx-xxxxxxxx (16-digit numbers padded with eight zeros, a Hungarian IBAN reduced to its number); null when the value is not 16 or 24 digits.';--> statement-breakpoint
COMMENT ON FUNCTION regwatch.bank_accounts_of(jsonb) IS 'Canonical accounts listed by a bank_accounts value (array of {"bank_account": ...} objects or strings), sorted, without duplicates.';--> statement-breakpoint
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
