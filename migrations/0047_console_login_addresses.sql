-- Sign-in limits across names and addresses (issue 48, point 9).
--
-- console_login_addresses: the addresses each console user signed in from, with when last. The
-- limits per address (across names) and per name (across addresses) spare a name at an address
-- it signed in from within 90 days, so a stranger's burst does not lock a user out of their usual
-- place; rows older than that are pruned. console_login_failures_address serves the per-address
-- count.
CREATE TABLE "regwatch"."console_login_addresses" (
	"user_id" bigint NOT NULL,
	"address" text NOT NULL,
	"last_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "console_login_addresses_pkey" PRIMARY KEY("user_id","address")
);
--> statement-breakpoint
ALTER TABLE "regwatch"."console_login_addresses" ADD CONSTRAINT "console_login_addresses_user_id_console_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "regwatch"."console_users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "console_login_failures_address" ON "regwatch"."console_login_failures" USING btree ("address","at");
--> statement-breakpoint
COMMENT ON TABLE regwatch.console_login_addresses IS 'Addresses each console user signed in from, spared by the sign-in limits across names and addresses; rows older than 90 days are pruned.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.console_login_addresses.user_id IS 'The user who signed in.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.console_login_addresses.address IS 'The address they signed in from.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.console_login_addresses.last_at IS 'When they last signed in from it (database clock).';
--> statement-breakpoint
COMMENT ON TABLE regwatch.console_login_failures IS 'Failed console sign-ins (and ones still being checked), for the limits per user name and address, per address and per name; rows older than an hour are pruned.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.console_login_failures.at IS 'When the attempt was counted (database clock).';
