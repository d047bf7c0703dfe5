-- Console user names with accented letters (issue 49, point 12): `kovács.éva`. The names stay
-- NFC (the CLI and the console normalise before they check); the letters allowed are those of
-- the Latin alphabet with accents (Latin-1, Extended-A/B, Extended Additional), as USER_NAME in
-- src/console/users-admin.ts: a look-alike of another script (Cyrillic "а") stays refused.
ALTER TABLE "regwatch"."console_users" DROP CONSTRAINT "console_users_name_shape";--> statement-breakpoint
ALTER TABLE "regwatch"."console_users" ADD CONSTRAINT "console_users_name_shape" CHECK ("name" ~ '^[A-Za-z0-9._@À-ÖØ-öø-ɏḀ-ỿ-]{1,64}$');
