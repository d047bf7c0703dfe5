-- Desired lists an operator dropped (`regwatch watch drop-list`): the record that the list was
-- regwatch's, so reconcile may delete its remote list (only with --allow-delete-lists) and never
-- deletes a list it did not own.
CREATE TABLE "regwatch"."dropped_lists" (
	"list_name" text PRIMARY KEY NOT NULL,
	"list_key" text,
	"items" integer DEFAULT 0 NOT NULL,
	"dropped_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
COMMENT ON TABLE regwatch.dropped_lists IS 'Desired lists dropped by regwatch watch drop-list. reconcile --allow-delete-lists deletes the remote list of each row not deleted yet (and not desired again); without it the remote list is left in place. Lists never named here or in desired_lists are never deleted.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.dropped_lists.list_name IS 'Name of the dropped desired list.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.dropped_lists.list_key IS 'Key of the remote list reconcile used for it when it was dropped; null when none was known (reconcile then picks by name, as it did while the list was desired).';--> statement-breakpoint
COMMENT ON COLUMN regwatch.dropped_lists.items IS 'Desired items the list had when it was dropped.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.dropped_lists.dropped_at IS 'When the list was dropped.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.dropped_lists.deleted_at IS 'When reconcile deleted the remote list (or found it gone); null while it is still to be deleted.';
