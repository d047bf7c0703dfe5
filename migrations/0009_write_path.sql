CREATE TABLE "regwatch"."invalid_items" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"list_key" text NOT NULL,
	"window_start" date NOT NULL,
	"window_end" date NOT NULL,
	"change_date" text NOT NULL,
	"tax_id" text NOT NULL,
	"reason" text NOT NULL,
	"item" text NOT NULL,
	"run_id" bigint,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolution" text
);
--> statement-breakpoint
CREATE INDEX "invalid_items_open" ON "regwatch"."invalid_items" USING btree ("list_key","window_start") WHERE "regwatch"."invalid_items"."resolved_at" is null;
--> statement-breakpoint
ALTER TABLE "regwatch"."coverage" ADD COLUMN "accepted_reason" text;
--> statement-breakpoint
COMMENT ON TABLE regwatch.invalid_items IS 'Changed items the registry sent that failed validation before storage (impossible date, tax id not 8 digits, NUL or invalid UTF-8). While one is open (resolved_at null) its window is not covered.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.invalid_items.id IS 'Generated identifier.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.invalid_items.list_key IS 'Watch list whose changes answer held the item.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.invalid_items.window_start IS 'First day of the interval that was asked.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.invalid_items.window_end IS 'Last day of the interval that was asked.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.invalid_items.change_date IS 'The item''s change date exactly as received (text: it may not be a date).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.invalid_items.tax_id IS 'The item''s tax id exactly as received.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.invalid_items.reason IS 'Why the item was not stored.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.invalid_items.item IS 'The item as JSON text, NUL and other characters escaped.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.invalid_items.run_id IS 'Run that received the item.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.invalid_items.seen_at IS 'When the item was received.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.invalid_items.resolved_at IS 'When the window was answered cleanly or accepted by an operator; null while open.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.invalid_items.resolution IS 'How it was resolved: answered cleanly, or the operator''s reason given to coverage accept.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.coverage.accepted_reason IS 'Set when an operator marked these days covered with coverage accept: the reason given; null for days read from the registry.';
