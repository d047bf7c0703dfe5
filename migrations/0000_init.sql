CREATE SCHEMA "regwatch";
--> statement-breakpoint
CREATE TABLE "regwatch"."api_usage" (
	"day" date NOT NULL,
	"api" text NOT NULL,
	"endpoint" text NOT NULL,
	"requests" integer DEFAULT 0 NOT NULL,
	"errors" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "api_usage_day_api_endpoint_pk" PRIMARY KEY("day","api","endpoint")
);
--> statement-breakpoint
CREATE TABLE "regwatch"."businesses" (
	"tax_id" text PRIMARY KEY NOT NULL,
	"type" text,
	"status_code" integer,
	"full_name" text,
	"short_name" text,
	"address" text,
	"tax_number" text,
	"registration_number" text,
	"record" jsonb NOT NULL,
	"records" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "regwatch"."change_files" (
	"path" text PRIMARY KEY NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"http_status" integer,
	"content_type" text,
	"sha256" text,
	"size_bytes" bigint,
	"body_json" jsonb,
	"body_bytes" "bytea",
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"fetched_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "change_files_status" CHECK ("regwatch"."change_files"."status" in ('pending', 'fetched', 'failed', 'refused'))
);
--> statement-breakpoint
CREATE TABLE "regwatch"."change_sources" (
	"change_id" bigint NOT NULL,
	"list_key" text NOT NULL,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "change_sources_change_id_list_key_pk" PRIMARY KEY("change_id","list_key")
);
--> statement-breakpoint
CREATE TABLE "regwatch"."changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tax_id" text NOT NULL,
	"change_date" date NOT NULL,
	"chapter" text NOT NULL,
	"path" text NOT NULL,
	"changed_headings" text[] DEFAULT '{}'::text[] NOT NULL,
	"raw" jsonb NOT NULL,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "changes_identity" UNIQUE("tax_id","change_date","chapter","path")
);
--> statement-breakpoint
CREATE TABLE "regwatch"."coverage" (
	"list_key" text NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"requested_start" date,
	"requested_end" date,
	"change_count" integer DEFAULT 0 NOT NULL,
	"run_id" bigint,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "coverage_list_key_start_date_end_date_pk" PRIMARY KEY("list_key","start_date","end_date"),
	CONSTRAINT "coverage_order" CHECK ("regwatch"."coverage"."start_date" <= "regwatch"."coverage"."end_date")
);
--> statement-breakpoint
CREATE TABLE "regwatch"."desired_items" (
	"list_name" text NOT NULL,
	"tax_id" text NOT NULL,
	"source" text,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "desired_items_list_name_tax_id_pk" PRIMARY KEY("list_name","tax_id")
);
--> statement-breakpoint
CREATE TABLE "regwatch"."desired_lists" (
	"list_name" text PRIMARY KEY NOT NULL,
	"prune" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "regwatch"."item_outcomes" (
	"list_name" text NOT NULL,
	"tax_id" text NOT NULL,
	"op" text NOT NULL,
	"code" integer,
	"message" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"run_id" bigint,
	CONSTRAINT "item_outcomes_list_name_tax_id_op_pk" PRIMARY KEY("list_name","tax_id","op"),
	CONSTRAINT "item_outcomes_op" CHECK ("regwatch"."item_outcomes"."op" in ('add', 'remove'))
);
--> statement-breakpoint
CREATE TABLE "regwatch"."runs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"trigger" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"status" text DEFAULT 'running' NOT NULL,
	"stats" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"error" text,
	"pid" integer,
	"host" text,
	CONSTRAINT "runs_status" CHECK ("regwatch"."runs"."status" in ('running', 'ok', 'partial', 'failed')),
	CONSTRAINT "runs_trigger" CHECK ("regwatch"."runs"."trigger" in ('cli', 'schedule', 'catchup'))
);
--> statement-breakpoint
CREATE TABLE "regwatch"."watch_lists" (
	"list_key" text PRIMARY KEY NOT NULL,
	"list_name" text NOT NULL,
	"created_at" date,
	"watch_count" integer,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "regwatch"."watched_items" (
	"list_key" text NOT NULL,
	"tax_id" text NOT NULL,
	"added_at" date,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "watched_items_list_key_tax_id_pk" PRIMARY KEY("list_key","tax_id")
);
--> statement-breakpoint
ALTER TABLE "regwatch"."change_sources" ADD CONSTRAINT "change_sources_change_id_changes_id_fk" FOREIGN KEY ("change_id") REFERENCES "regwatch"."changes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "regwatch"."desired_items" ADD CONSTRAINT "desired_items_list_name_desired_lists_list_name_fk" FOREIGN KEY ("list_name") REFERENCES "regwatch"."desired_lists"("list_name") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "change_files_open" ON "regwatch"."change_files" USING btree ("status") WHERE "regwatch"."change_files"."status" in ('pending', 'failed');--> statement-breakpoint
CREATE INDEX "change_sources_list" ON "regwatch"."change_sources" USING btree ("list_key");--> statement-breakpoint
CREATE INDEX "changes_change_date" ON "regwatch"."changes" USING btree ("change_date");--> statement-breakpoint
CREATE INDEX "changes_path" ON "regwatch"."changes" USING btree ("path");--> statement-breakpoint
CREATE INDEX "runs_kind_started" ON "regwatch"."runs" USING btree ("kind","started_at");