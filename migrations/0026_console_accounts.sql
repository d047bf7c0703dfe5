-- The web console in front of many accounts (issue 29).
--
-- With an accounts file, schema regwatch is the fleet's home: console users, sessions and failed
-- sign-ins stay in its console tables, and console_user_accounts says which accounts each user may
-- look at (their role applies in each of them). A user with no row here sees no account's data.
-- The table exists in every account schema too (every schema gets the same migrations) and stays
-- empty there.
--
-- console_sessions.current_account: the account a session shows; switched with POST /account,
-- checked against console_user_accounts on every request. Null: the first account the user has.
CREATE TABLE "regwatch"."console_user_accounts" (
	"user_id" bigint NOT NULL REFERENCES "regwatch"."console_users"("id") ON DELETE CASCADE,
	"account" text NOT NULL,
	"granted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "console_user_accounts_pkey" PRIMARY KEY ("user_id", "account"),
	CONSTRAINT "console_user_accounts_account_shape" CHECK ("account" ~ '^[a-z][a-z0-9_]{0,29}$')
);
--> statement-breakpoint
ALTER TABLE "regwatch"."console_sessions" ADD COLUMN "current_account" text;
--> statement-breakpoint
COMMENT ON TABLE regwatch.console_user_accounts IS 'Accounts of the accounts file each console user may see (regwatch users add --account, grant, revoke); used in the fleet home schema only.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.console_user_accounts.user_id IS 'The user (regwatch.console_users.id); removing the user removes the rows.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.console_user_accounts.account IS 'Name of an account in the accounts file; its data lives in schema regwatch_<account>.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.console_user_accounts.granted_at IS 'When the account was given to the user.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.console_sessions.current_account IS 'Account the session shows (POST /account switches it); null shows the first account the user has; unused without an accounts file.';
