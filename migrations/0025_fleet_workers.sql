-- The queue workers of a fleet (issue 29).
--
-- worker_heartbeats: one row per `regwatch worker` process (or `daemon --worker`), written every few
-- seconds while it runs. Every worker reads the others' rows: one whose heartbeat is older than
-- REGWATCH_JOB_LEASE_S is taken for dead, and the jobs and queues its workers held in the job queue
-- (graphile-worker's schema) are unlocked at once, so another worker takes them over without waiting
-- for the queue's own multi-hour rule. The table exists in every schema (the migrations are the
-- same everywhere); only the fleet's home schema, regwatch, has rows.
CREATE TABLE "regwatch"."worker_heartbeats" (
	"id" text PRIMARY KEY NOT NULL,
	"lock_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"host" text NOT NULL,
	"pid" integer NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL,
	"concurrency" integer NOT NULL,
	"jobs_running" integer DEFAULT 0 NOT NULL,
	"jobs_done" integer DEFAULT 0 NOT NULL,
	"jobs_failed" integer DEFAULT 0 NOT NULL,
	"stopped_at" timestamp with time zone,
	"stop_reason" text,
	CONSTRAINT "worker_heartbeats_stop_reason" CHECK ("stop_reason" in ('stopped', 'lease expired'))
);
--> statement-breakpoint
CREATE INDEX "worker_heartbeats_live" ON "regwatch"."worker_heartbeats" USING btree ("heartbeat_at") WHERE "stopped_at" IS NULL;
--> statement-breakpoint
COMMENT ON TABLE regwatch.worker_heartbeats IS 'Queue worker processes of a fleet and when each last said it was alive; only the fleet''s home schema has rows.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.worker_heartbeats.id IS 'The process''s worker pool id in the job queue.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.worker_heartbeats.lock_ids IS 'Ids its workers write in the queue''s locked_by; unlocked together when its lease runs out.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.worker_heartbeats.host IS 'Host name of the machine the process runs on.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.worker_heartbeats.pid IS 'Process id on that host.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.worker_heartbeats.started_at IS 'When the process started taking jobs.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.worker_heartbeats.heartbeat_at IS 'Last heartbeat; older than REGWATCH_JOB_LEASE_S means the process is taken for dead.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.worker_heartbeats.concurrency IS 'Jobs it runs at once at most (worker --concurrency).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.worker_heartbeats.jobs_running IS 'Jobs running at the last heartbeat.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.worker_heartbeats.jobs_done IS 'Jobs it finished successfully since it started.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.worker_heartbeats.jobs_failed IS 'Job attempts that failed in it since it started (each is retried until its attempts run out).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.worker_heartbeats.stopped_at IS 'When it stopped, or was found dead by another worker; null while it runs.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.worker_heartbeats.stop_reason IS 'stopped (a clean stop) or lease expired (another worker found its heartbeat too old and released its jobs).';
