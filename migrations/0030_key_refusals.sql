-- A refused key stops an account's work until its key changes (issue 37).
--
-- key_refusals: one row per key variable whose key the registry refused (401/403) during a run.
-- A queue worker does not run the account's jobs while the variable still holds the refused key
-- (compared by fingerprint) on the day of the refusal; the next day's slot tries once more. The
-- key is never stored: only a SHA-256 fingerprint prefix that tells one key from another.
-- status --fleet and doctor read it; a job that runs with the key again clears it.
CREATE TABLE "regwatch"."key_refusals" (
	"key_variable" text PRIMARY KEY NOT NULL,
	"key_fingerprint" text NOT NULL,
	"refused_at" timestamp with time zone DEFAULT now() NOT NULL,
	"refused_day" date NOT NULL,
	"http_status" integer,
	"endpoint" text NOT NULL,
	"error" text NOT NULL
);
--> statement-breakpoint
COMMENT ON TABLE regwatch.key_refusals IS 'Keys the registry refused (401/403), by the variable that held them: the account''s jobs wait until the variable holds another key or the next day.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.key_refusals.key_variable IS 'The environment variable that held the refused key (REGWATCH_API_KEY, or the account''s api_key_env); never the key.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.key_refusals.key_fingerprint IS 'First 16 hex digits of the SHA-256 of the refused key: tells whether the variable still holds it.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.key_refusals.refused_at IS 'When the registry refused the key (the latest refusal).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.key_refusals.refused_day IS 'The account''s local day (its timezone) of the refusal: jobs of a later day try the key again.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.key_refusals.http_status IS 'The refusal''s HTTP status (401 or 403).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.key_refusals.endpoint IS 'The request that was refused, e.g. GET /v2/lists/:key/changes.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.key_refusals.error IS 'The refusal as reported (secrets scrubbed).';
