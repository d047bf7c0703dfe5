-- A name for every business (issue 34, point 3).
--
-- given_names: names people and files gave a business (`watch import` reads a name column, `watch
-- add --name`), each with where it came from: `file <file name>` or `user <who>`, or `earlier`
-- for the names given before the source was kept (moved here from business_profiles). The console
-- and the CLI show the newest given name, saying where it came from, until the registry's own name
-- is known. One row per business and source: giving a name again from the same source replaces it.
--
-- business_profiles: a name an operator gave still lands in the profile's `name` heading (BI reads
-- it), but the registry's own names (search records, change files) now come first in
-- business_profiles.name whatever their dates; the profiles an operator's name stood in are
-- summarised again here.
CREATE TABLE "regwatch"."given_names" (
	"tax_id" text NOT NULL,
	"source" text NOT NULL,
	"name" text NOT NULL,
	"given_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "given_names_pkey" PRIMARY KEY ("tax_id", "source"),
	CONSTRAINT "given_names_tax_id" CHECK ("tax_id" ~ '^[0-9]{8}$'),
	CONSTRAINT "given_names_source" CHECK ("source" ~ '^(file|user) .' OR "source" = 'earlier'),
	CONSTRAINT "given_names_name" CHECK (btrim("name") <> '' AND length("name") <= 500)
);
--> statement-breakpoint
CREATE INDEX "given_names_newest" ON "regwatch"."given_names" ("tax_id", "given_at" DESC);
--> statement-breakpoint
INSERT INTO "regwatch"."given_names" ("tax_id", "source", "name", "given_at")
SELECT p.tax_id, 'earlier', left(btrim(p.headings -> 'name' ->> 'value'), 500),
       coalesce((p.headings -> 'name' ->> 'as_of')::date, p.updated_at::date)::timestamptz
FROM "regwatch"."business_profiles" p
WHERE p.headings -> 'name' ->> 'source' = 'operator'
  AND p.tax_id ~ '^[0-9]{8}$'
  AND jsonb_typeof(p.headings -> 'name' -> 'value') = 'string'
  AND btrim(p.headings -> 'name' ->> 'value') <> ''
ON CONFLICT DO NOTHING;
--> statement-breakpoint
UPDATE "regwatch"."business_profiles" p SET
  ("name", "name_as_of", "name_source") = (
    SELECT e.value ->> 'value', (e.value ->> 'as_of')::date, e.value ->> 'source'
    FROM jsonb_each(p.headings) e
    WHERE e.key = ANY (ARRAY['long_name', 'full_name', 'name', 'short_name'])
      AND jsonb_typeof(e.value -> 'value') = 'string' AND btrim(e.value ->> 'value') <> ''
    ORDER BY e.key = 'short_name', e.value ->> 'source' = 'operator', (e.value ->> 'as_of')::date DESC,
             array_position(ARRAY['long_name', 'full_name', 'name', 'short_name'], e.key)
    LIMIT 1)
WHERE p.name_source = 'operator';
--> statement-breakpoint
COMMENT ON TABLE regwatch.given_names IS 'Names people and files gave businesses (watch import, watch add --name), with where each came from; shown, marked as given, until the registry names the business.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.given_names.tax_id IS 'Tax base number of the business named.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.given_names.source IS 'Where the name came from: `file <file name>` (watch import), `user <who>` (watch add --name), or `earlier` (given before sources were kept).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.given_names.name IS 'The name as given (trimmed, at most 500 characters).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.given_names.given_at IS 'When the name was given (the latest time this source gave it).';
