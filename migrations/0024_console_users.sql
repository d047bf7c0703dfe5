-- The web console's people and sign-ins (issue 28).
--
-- console_users: who may sign in to `regwatch web`, with a role (reader, reviewer, admin) and a
-- password kept only as a scrypt hash whose salt and cost parameters travel inside the string,
-- so the cost can be raised later without a migration. Managed with `regwatch users`.
--
-- console_sessions: sessions live in the database, not in a signed cookie, so signing out, a
-- password change and expiry end a session for real, and a daemon restart or a second web process
-- keeps people signed in. The cookie holds a random token; only its SHA-256 is stored, so a copy
-- of this table cannot be replayed as a cookie.
--
-- console_login_failures: failed sign-ins per user name and address, so more than five in a minute
-- answer 429 whichever console process is asked.
--
-- alert_events: a comment from the console is an event with a note that leaves the status alone.
--
-- Three small partial indexes keep the inbox's first page and its counts bar quick with tens of
-- thousands of open alerts: open alerts newest first, open alerts by when they were raised ("new
-- since yesterday"), and the changes that touched bank accounts.
CREATE TABLE "regwatch"."console_users" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"role" text NOT NULL,
	"password_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "console_users_name" UNIQUE ("name"),
	CONSTRAINT "console_users_role" CHECK ("role" in ('reader', 'reviewer', 'admin')),
	CONSTRAINT "console_users_name_shape" CHECK ("name" ~ '^[A-Za-z0-9._@-]{1,64}$')
);
--> statement-breakpoint
CREATE TABLE "regwatch"."console_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL REFERENCES "regwatch"."console_users"("id") ON DELETE CASCADE,
	"csrf_token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "console_sessions_user" ON "regwatch"."console_sessions" ("user_id");
--> statement-breakpoint
CREATE INDEX "console_sessions_expires" ON "regwatch"."console_sessions" ("expires_at");
--> statement-breakpoint
CREATE TABLE "regwatch"."console_login_failures" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"address" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "console_login_failures_who" ON "regwatch"."console_login_failures" ("username", "address", "at");
--> statement-breakpoint
ALTER TABLE "regwatch"."alert_events" DROP CONSTRAINT "alert_events_action";
--> statement-breakpoint
ALTER TABLE "regwatch"."alert_events" ADD CONSTRAINT "alert_events_action" CHECK ("action" in ('acknowledged', 'resolved', 'snoozed', 'reopened', 'commented', 'rule added', 'rule edited', 'rule paused', 'rule resumed', 'rule removed'));
--> statement-breakpoint
CREATE INDEX "alerts_open_newest" ON "regwatch"."alerts" ("id" DESC) WHERE "status" = 'open';
--> statement-breakpoint
CREATE INDEX "alerts_open_raised" ON "regwatch"."alerts" ("raised_at") WHERE "status" = 'open';
--> statement-breakpoint
CREATE INDEX "changes_bank_accounts" ON "regwatch"."changes" ("id") WHERE 'bank_accounts' = ANY ("changed_headings");
--> statement-breakpoint
COMMENT ON TABLE regwatch.console_users IS 'People who may sign in to the web console (regwatch users add/list/passwd/remove), with their role.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.console_users.id IS 'Generated id of the user.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.console_users.name IS 'Sign-in name, unique; also the name written as who acted in alert_events.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.console_users.role IS 'reader (reads), reviewer (also acts on alerts and payees), admin (also manages rules and users).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.console_users.password_hash IS 'scrypt hash of the password as scrypt$N$r$p$salt$hash (base64url); the password itself is never stored.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.console_users.created_at IS 'When the user was added.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.console_users.updated_at IS 'When the role or password last changed.';
--> statement-breakpoint
COMMENT ON TABLE regwatch.console_sessions IS 'Signed-in console sessions; a row removed (sign-out, password change, user removed) or expired ends the session.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.console_sessions.id IS 'SHA-256 (hex) of the random token in the session cookie; the token itself is never stored.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.console_sessions.user_id IS 'The signed-in user (regwatch.console_users.id).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.console_sessions.csrf_token IS 'Token every form of the session posts back as _csrf; a POST without it changes nothing.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.console_sessions.created_at IS 'When the user signed in.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.console_sessions.expires_at IS 'When the session ends (REGWATCH_WEB_SESSION_HOURS after sign-in).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.console_sessions.last_seen_at IS 'Last request of the session (updated at most once a minute).';
--> statement-breakpoint
COMMENT ON TABLE regwatch.console_login_failures IS 'Failed console sign-ins, for the limit of five a minute per user name and address; rows older than an hour are pruned.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.console_login_failures.id IS 'Generated id.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.console_login_failures.username IS 'The user name tried (the password tried is never kept).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.console_login_failures.address IS 'The address the attempt came from.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.console_login_failures.at IS 'When the attempt failed.';
