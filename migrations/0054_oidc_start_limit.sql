-- Company sign-in's start limit (/login/oidc): each sign-in under way records the client address
-- that began it and when, on the database's clock, so the starts per address in the last minute
-- can be counted before another row is written.
ALTER TABLE "regwatch"."console_oidc_logins" ADD COLUMN "address" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "regwatch"."console_oidc_logins" ADD COLUMN "created_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE INDEX "console_oidc_logins_address" ON "regwatch"."console_oidc_logins" USING btree ("address","created_at");--> statement-breakpoint
COMMENT ON COLUMN regwatch.console_oidc_logins.address IS 'Client address that started the sign-in; counted by the start limit per address.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.console_oidc_logins.created_at IS 'When the sign-in began, on the database''s clock.';
