CREATE TABLE "regwatch"."business_profiles" (
	"tax_id" text PRIMARY KEY NOT NULL,
	"name" text,
	"name_as_of" date,
	"name_source" text,
	"type" text,
	"registration_number" text,
	"status_code" integer,
	"status_as_of" date,
	"seat" text,
	"headings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"baseline" jsonb,
	"baseline_as_of" date,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "regwatch"."change_values" (
	"change_id" bigint NOT NULL,
	"heading" text NOT NULL,
	"tax_id" text NOT NULL,
	"change_date" date NOT NULL,
	"old_value" jsonb,
	"new_value" jsonb,
	"path" text NOT NULL,
	"parsed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "change_values_change_id_heading_pk" PRIMARY KEY("change_id","heading")
);
--> statement-breakpoint
ALTER TABLE "regwatch"."change_files" DROP CONSTRAINT "change_files_status";--> statement-breakpoint
ALTER TABLE "regwatch"."change_files" ADD COLUMN "parse_status" text;--> statement-breakpoint
ALTER TABLE "regwatch"."change_files" ADD COLUMN "parser" text;--> statement-breakpoint
ALTER TABLE "regwatch"."change_files" ADD COLUMN "parse_error" text;--> statement-breakpoint
ALTER TABLE "regwatch"."change_files" ADD COLUMN "parsed_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "change_values_tax_date" ON "regwatch"."change_values" USING btree ("tax_id","change_date");--> statement-breakpoint
CREATE INDEX "change_values_heading_date" ON "regwatch"."change_values" USING btree ("heading","change_date");--> statement-breakpoint
ALTER TABLE "regwatch"."change_files" ADD CONSTRAINT "change_files_parse_status" CHECK ("regwatch"."change_files"."parse_status" is null or "regwatch"."change_files"."parse_status" in ('parsed', 'unrecognised', 'failed'));--> statement-breakpoint
ALTER TABLE "regwatch"."change_files" ADD CONSTRAINT "change_files_status" CHECK ("regwatch"."change_files"."status" in ('pending', 'fetched', 'failed', 'refused', 'skipped'));--> statement-breakpoint
COMMENT ON TABLE regwatch.change_values IS 'What changed: one row per changed heading of a change, with its old and new value, parsed from the change file. A heading listed twice in one file keeps its last value.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.change_values.change_id IS 'The change (regwatch.changes.id) the values belong to.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.change_values.heading IS 'Name of the register heading that changed (e.g. long_name, bank_accounts).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.change_values.tax_id IS 'Tax base number of the business (8 digits), copied from the change.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.change_values.change_date IS 'Date of the change, copied from the change.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.change_values.old_value IS 'Value before the change, any JSON type; null for a first registration.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.change_values.new_value IS 'Value after the change, any JSON type; null when the heading was removed.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.change_values.path IS 'The change file the values were read from (regwatch.change_files.path).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.change_values.parsed_at IS 'When the file was parsed into these values.';--> statement-breakpoint
COMMENT ON TABLE regwatch.business_profiles IS 'The latest known facts of each business, from search records, operators and parsed change files; each heading value with the date and source it came from.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.business_profiles.tax_id IS 'Tax base number (8 digits).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.business_profiles.name IS 'Best known name: the newest of a changed name, a search record''s full name, or a name an operator gave.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.business_profiles.name_as_of IS 'Date the name is known to hold from (change date, or the day the record was read).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.business_profiles.name_source IS 'Where the name came from: search, operator or change_file.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.business_profiles.type IS 'Business type (companies, self_employed, budget_orgs, civil_orgs).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.business_profiles.registration_number IS 'Registration number as the registry writes it.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.business_profiles.status_code IS 'Status as received: 0 ceased, 1 operating, 2 suspended.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.business_profiles.status_as_of IS 'Date the status is known to hold from.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.business_profiles.seat IS 'Registered seat (address).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.business_profiles.headings IS 'Every known heading: {"<heading>": {"value": ..., "as_of": "YYYY-MM-DD", "source": "search|operator|change_file"}}.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.business_profiles.baseline IS 'The search record the business was first known by; business_as_of applies change values to it.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.business_profiles.baseline_as_of IS 'Day the baseline record was read.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.business_profiles.updated_at IS 'When the profile was last written.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.change_files.parse_status IS 'Null until the fetched body is parsed; parsed (values in change_values), unrecognised (no parser knows the body, kept untouched) or failed (see parse_error).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.change_files.parser IS 'Name of the parser that read the body.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.change_files.parse_error IS 'Why the body was unrecognised or failed to parse.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.change_files.parsed_at IS 'When the body was last parsed (regwatch reparse parses again).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.change_files.status IS 'pending (not fetched yet), fetched, failed (will be retried), refused (address outside REGWATCH_FILE_ORIGINS, never fetched), skipped (left out by REGWATCH_FETCH_FILES; fetched once the policy includes it).';
