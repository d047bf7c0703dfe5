-- The run lock as a lease row (issue 38): one process at a time calls the registry for an account.
-- A session advisory lock cannot pass through a pooler in transaction mode (PgBouncer hands the
-- session to others between transactions), so the lock is a row whose holder renews it on the
-- database's clock. A holder that stops renewing (a crash, a lost network) loses it once
-- expires_at has passed; the next process takes it over then.
CREATE TABLE "regwatch"."run_lease" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL CHECK ("id" = 1),
	"holder" text NOT NULL,
	"pid" integer,
	"host" text,
	"taken_at" timestamp with time zone DEFAULT now() NOT NULL,
	"renewed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
COMMENT ON TABLE regwatch.run_lease IS 'The run lock of this schema: at most one row, held by the process whose holder token it names until expires_at (renewed while the run goes on).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.run_lease.id IS 'Always 1: the schema has one run lock.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.run_lease.holder IS 'A random token of the holding process''s lock (never reused).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.run_lease.pid IS 'Process id of the holder, on host.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.run_lease.host IS 'Host name of the holder.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.run_lease.taken_at IS 'When the holder took the lease (database clock).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.run_lease.renewed_at IS 'The holder''s last renewal (database clock).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.run_lease.expires_at IS 'Past this instant (database clock) the lease is free for another process.';
