/**
 * Runs, request counts and the registry's description as last read.
 */
import { sql } from "drizzle-orm";
import {
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  primaryKey,
  smallint,
  text,
} from "drizzle-orm/pg-core";
import { createdNow, day, instant, regwatch } from "./columns.ts";

export const runs = regwatch.table(
  "runs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    kind: text("kind").notNull(),
    trigger: text("trigger").notNull(),
    startedAt: createdNow("started_at"),
    finishedAt: instant("finished_at"),
    status: text("status").notNull().default("running"),
    stats: jsonb("stats").notNull().default(sql`'{}'::jsonb`),
    error: text("error"),
    pid: integer("pid"),
    host: text("host"),
  },
  (t) => [
    check("runs_status", sql`${t.status} in ('running', 'ok', 'partial', 'failed')`),
    check("runs_trigger", sql`${t.trigger} in ('cli', 'schedule', 'catchup', 'manual')`),
    index("runs_kind_started").on(t.kind, t.startedAt),
  ],
);

/** The run lock: one row while a process holds it, renewed until expires_at (database clock). */
export const runLease = regwatch.table(
  "run_lease",
  {
    id: smallint("id").primaryKey().default(1),
    holder: text("holder").notNull(),
    pid: integer("pid"),
    host: text("host"),
    takenAt: createdNow("taken_at"),
    renewedAt: createdNow("renewed_at"),
    expiresAt: instant("expires_at").notNull(),
  },
  (t) => [check("run_lease_id_check", sql`${t.id} = 1`)],
);

export const apiUsage = regwatch.table(
  "api_usage",
  {
    day: day("day").notNull(),
    api: text("api").notNull(),
    endpoint: text("endpoint").notNull(),
    requests: integer("requests").notNull().default(0),
    errors: integer("errors").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.api, t.endpoint] })],
);

/** What was last read of the registry's OpenAPI description, per watch address (migration 0019). */
export const registryDescriptions = regwatch.table(
  "registry_descriptions",
  {
    watchUrl: text("watch_url").primaryKey(),
    status: text("status").notNull(),
    url: text("url"),
    sha256: text("sha256"),
    readOn: day("read_on").notNull(),
    readAt: createdNow("read_at"),
    fromParam: text("from_param"),
    toParam: text("to_param"),
    pageParam: text("page_param"),
    dateFormat: text("date_format"),
    endInclusive: boolean("end_inclusive"),
    tried: text("tried").array().notNull().default(sql`'{}'::text[]`),
    problem: text("problem"),
  },
  (t) => [
    check("registry_descriptions_status", sql`${t.status} in ('found', 'absent', 'unreadable')`),
    check(
      "registry_descriptions_found",
      sql`${t.status} <> 'found' or (${t.url} is not null and ${t.sha256} is not null and ${t.fromParam} is not null and ${t.toParam} is not null)`,
    ),
  ],
);
