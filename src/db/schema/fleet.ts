/**
 * The fleet's own bookkeeping in its home schema (`regwatch`): the queue workers' heartbeats.
 * The queue itself lives in graphile-worker's schema, which graphile-worker migrates.
 */
import { sql } from "drizzle-orm";
import { check, date, index, integer, text } from "drizzle-orm/pg-core";
import { createdNow, instant, regwatch } from "./columns.ts";

export const workerHeartbeats = regwatch.table(
  "worker_heartbeats",
  {
    id: text("id").primaryKey(),
    lockIds: text("lock_ids").array().notNull().default(sql`'{}'::text[]`),
    host: text("host").notNull(),
    pid: integer("pid").notNull(),
    startedAt: createdNow("started_at"),
    heartbeatAt: createdNow("heartbeat_at"),
    concurrency: integer("concurrency").notNull(),
    jobsRunning: integer("jobs_running").notNull().default(0),
    jobsDone: integer("jobs_done").notNull().default(0),
    jobsFailed: integer("jobs_failed").notNull().default(0),
    stoppedAt: instant("stopped_at"),
    stopReason: text("stop_reason"),
  },
  (t) => [
    check("worker_heartbeats_stop_reason", sql`${t.stopReason} in ('stopped', 'lease expired')`),
    index("worker_heartbeats_live").on(t.heartbeatAt).where(sql`${t.stoppedAt} IS NULL`),
  ],
);

/** Keys the registry refused, by variable (never the key): the account's jobs wait for another key. */
export const keyRefusals = regwatch.table("key_refusals", {
  keyVariable: text("key_variable").primaryKey(),
  keyFingerprint: text("key_fingerprint").notNull(),
  refusedAt: createdNow("refused_at"),
  refusedDay: date("refused_day", { mode: "string" }).notNull(),
  httpStatus: integer("http_status"),
  endpoint: text("endpoint").notNull(),
  error: text("error").notNull(),
});
