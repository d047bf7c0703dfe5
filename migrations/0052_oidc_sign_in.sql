-- Company sign-in through OpenID Connect (issue 51, part 2).
--
-- console_users.external_subject: "<issuer> <sub>" of a person who signs in through the company's
-- identity provider; their row is created or refreshed at each sign-in (role and accounts from the
-- operator's claim mapping) and holds no usable password. Null for local users.
--
-- console_oidc_logins: sign-ins under way, between the redirect to the provider and its callback:
-- the state, nonce and PKCE verifier the callback must match. A row is deleted when the callback
-- uses it (a replayed callback finds nothing) and lives ten minutes at most; no token is stored.
CREATE TABLE "regwatch"."console_oidc_logins" (
	"id" text PRIMARY KEY NOT NULL,
	"state" text NOT NULL,
	"nonce" text NOT NULL,
	"code_verifier" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "regwatch"."console_users" ADD COLUMN "external_subject" text;--> statement-breakpoint
CREATE INDEX "console_oidc_logins_expires" ON "regwatch"."console_oidc_logins" USING btree ("expires_at");--> statement-breakpoint
ALTER TABLE "regwatch"."console_users" ADD CONSTRAINT "console_users_external_subject" UNIQUE("external_subject");--> statement-breakpoint
COMMENT ON COLUMN regwatch.console_users.external_subject IS 'Company sign-in: "<issuer> <sub>" of the person (OpenID Connect); null for a local user with a password.';--> statement-breakpoint
COMMENT ON TABLE regwatch.console_oidc_logins IS 'Company sign-ins under way (redirected to the identity provider, callback not yet back); each row is used once.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.console_oidc_logins.id IS 'SHA-256 (hex) of the random token in the browser''s pending sign-in cookie; the token itself is never stored.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.console_oidc_logins.state IS 'The state sent to the provider; the callback must bring it back.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.console_oidc_logins.nonce IS 'The nonce the ID token must carry.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.console_oidc_logins.code_verifier IS 'PKCE code verifier of this sign-in, sent with the code once.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.console_oidc_logins.expires_at IS 'When the sign-in under way lapses (ten minutes after it began).';
