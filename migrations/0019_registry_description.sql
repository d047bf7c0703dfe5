-- The registry's own description of its watch interface (issue 25).
--
-- The registry's document leaves the changes operation's parameter names out and points at an
-- OpenAPI description instead. What a run read there is kept here, one row per watch address, so
-- the description is read at most once a day and `regwatch doctor` can show what was found.
-- A row is also kept when nothing usable was served (status absent or unreadable), so a registry
-- without a description is not asked again on every run of the day.
CREATE TABLE "regwatch"."registry_descriptions" (
	"watch_url" text PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"url" text,
	"sha256" text,
	"read_on" date NOT NULL,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL,
	"from_param" text,
	"to_param" text,
	"page_param" text,
	"date_format" text,
	"end_inclusive" boolean,
	"tried" text[] DEFAULT '{}'::text[] NOT NULL,
	"problem" text,
	CONSTRAINT "registry_descriptions_status" CHECK ("status" IN ('found', 'absent', 'unreadable')),
	CONSTRAINT "registry_descriptions_found" CHECK ("status" <> 'found' OR ("url" IS NOT NULL AND "sha256" IS NOT NULL AND "from_param" IS NOT NULL AND "to_param" IS NOT NULL))
);
--> statement-breakpoint
COMMENT ON TABLE regwatch.registry_descriptions IS 'What regwatch last read of the registry''s OpenAPI description (linked from {watch_base_url}/docs), one row per watch address; read again at most once a day, at the start of a sync, backfill or daemon run.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.registry_descriptions.watch_url IS 'The watch address (REGWATCH_WATCH_URL, trailing slash removed) the description was read for.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.registry_descriptions.status IS 'found: a description naming the changes operation''s interval parameters was read; absent: none was served at any address tried; unreadable: something was served but could not be used (see problem).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.registry_descriptions.url IS 'Address the description was read from (status found).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.registry_descriptions.sha256 IS 'SHA-256 of the description''s bytes as served, hex (status found): tells a changed description from the one read before.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.registry_descriptions.read_on IS 'Day the description was read, in REGWATCH_TZ: a run reads it again only on a later day.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.registry_descriptions.read_at IS 'When the description was read.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.registry_descriptions.from_param IS 'Query parameter of the changes interval''s first day, as the description names it.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.registry_descriptions.to_param IS 'Query parameter of the changes interval''s last day, as the description names it.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.registry_descriptions.page_param IS 'Query parameter of the changes page number, when the description has one.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.registry_descriptions.date_format IS 'Date format the description documents for the interval (an OpenAPI format such as date, or a pattern), when it documents one.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.registry_descriptions.end_inclusive IS 'Whether the description says the interval''s last day is included; null when it does not say.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.registry_descriptions.tried IS 'Addresses asked for a description, in order (status absent or unreadable).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.registry_descriptions.problem IS 'Why no description could be used, in words (status absent or unreadable).';
