-- The console's language per user (issue 34): `users add --locale hu|en`, `users set-locale`, and
-- the language switch in the console's header. NULL: the user never chose, so the browser's
-- Accept-Language decides, else REGWATCH_LOCALE.
ALTER TABLE "regwatch"."console_users" ADD COLUMN "locale" text;
--> statement-breakpoint
ALTER TABLE "regwatch"."console_users" ADD CONSTRAINT "console_users_locale" CHECK ("locale" in ('en', 'hu'));
--> statement-breakpoint
COMMENT ON COLUMN regwatch.console_users.locale IS 'The language the console speaks to the user (en or hu); NULL: the browser''s Accept-Language, else REGWATCH_LOCALE.';
