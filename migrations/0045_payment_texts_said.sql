-- Payment texts in the console's languages (issue 34, point 2 of its follow-up).
--
-- payment_checks.detail_said / next_step_said: the verdict's detail as its sentences'
-- [{ "code", "values" }] and the next step as { "code", "values" } (src/said.ts), so the console
-- says a stored row in its reader's language; detail and next_step keep the English sentences
-- that BI tools, `payments check` and the downloads read. Null on rows recorded before, which the
-- console shows with their stored English.
ALTER TABLE "regwatch"."payment_checks" ADD COLUMN "detail_said" jsonb;--> statement-breakpoint
ALTER TABLE "regwatch"."payment_checks" ADD COLUMN "next_step_said" jsonb;
--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_checks.detail_said IS 'The detail''s sentences as [{code, values}] (catalog codes and their values), said by the console in its reader''s language; detail keeps the English. Null on rows recorded before migration 0045.';--> statement-breakpoint
COMMENT ON COLUMN regwatch.payment_checks.next_step_said IS 'The next step as {code, values}, said by the console in its own words and its reader''s language; next_step keeps the English. Null for ok rows and on rows recorded before migration 0045.';
