/**
 * What the retention policy did (`regwatch retention apply`, the daemon's daily pass): when, which
 * kind of personal data, how many rows, under which policy. Never what was removed.
 */
import { sql } from "drizzle-orm";
import { bigserial, check, index, integer, text } from "drizzle-orm/pg-core";
import { createdNow, regwatch } from "./columns.ts";

export const retentionRuns = regwatch.table(
  "retention_runs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    ranAt: createdNow("ran_at"),
    kind: text("kind").notNull(),
    /** removed (rows deleted, bodies dropped) or pseudonymised (values replaced by the marker). */
    action: text("action").notNull(),
    count: integer("count").notNull(),
    batches: integer("batches").notNull(),
    /** The rule applied, in words: "representatives: 1826 days (before 2021-12-06)". */
    policy: text("policy").notNull(),
    trigger: text("trigger").notNull(),
  },
  (t) => [
    index("retention_runs_ran_at").on(t.ranAt),
    check("retention_runs_action", sql`${t.action} in ('removed', 'pseudonymised')`),
    check("retention_runs_trigger", sql`${t.trigger} in ('cli', 'schedule')`),
  ],
);
