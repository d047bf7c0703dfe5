/**
 * The regwatch schema (Postgres schema `regwatch`). Table names and key columns are a contract
 * that BI tools and harnesses read (DESIGN.md); further columns may be added freely.
 * Views live in SQL migrations, next to the comments that document every table and column.
 */
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgSchema,
  primaryKey,
  text,
  timestamp,
  unique,
} from "drizzle-orm/pg-core";

export const regwatch = pgSchema("regwatch");

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "bytea" });
const day = (name: string) => date(name, { mode: "string" });
const instant = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
const createdNow = (name: string) => instant(name).notNull().defaultNow();

export const watchLists = regwatch.table("watch_lists", {
  listKey: text("list_key").primaryKey(),
  listName: text("list_name").notNull(),
  createdAt: day("created_at"),
  watchCount: integer("watch_count"),
  firstSeenAt: createdNow("first_seen_at"),
  lastSeenAt: createdNow("last_seen_at"),
  deletedAt: instant("deleted_at"),
});

export const watchedItems = regwatch.table(
  "watched_items",
  {
    listKey: text("list_key").notNull(),
    taxId: text("tax_id").notNull(),
    addedAt: day("added_at"),
    firstSeenAt: createdNow("first_seen_at"),
    lastSeenAt: createdNow("last_seen_at"),
  },
  (t) => [primaryKey({ columns: [t.listKey, t.taxId] })],
);

export const desiredLists = regwatch.table("desired_lists", {
  listName: text("list_name").primaryKey(),
  prune: boolean("prune").notNull().default(true),
  createdAt: createdNow("created_at"),
  updatedAt: createdNow("updated_at"),
});

export const desiredItems = regwatch.table(
  "desired_items",
  {
    listName: text("list_name")
      .notNull()
      .references(() => desiredLists.listName, { onDelete: "cascade", onUpdate: "cascade" }),
    taxId: text("tax_id").notNull(),
    source: text("source"),
    note: text("note"),
    createdAt: createdNow("created_at"),
  },
  (t) => [primaryKey({ columns: [t.listName, t.taxId] })],
);

export const itemOutcomes = regwatch.table(
  "item_outcomes",
  {
    listName: text("list_name").notNull(),
    taxId: text("tax_id").notNull(),
    op: text("op").notNull(),
    code: integer("code"),
    message: text("message"),
    at: createdNow("at"),
    runId: bigint("run_id", { mode: "number" }),
  },
  (t) => [
    primaryKey({ columns: [t.listName, t.taxId, t.op] }),
    check("item_outcomes_op", sql`${t.op} in ('add', 'remove')`),
  ],
);

export const coverage = regwatch.table(
  "coverage",
  {
    listKey: text("list_key").notNull(),
    startDate: day("start_date").notNull(),
    endDate: day("end_date").notNull(),
    requestedStart: day("requested_start"),
    requestedEnd: day("requested_end"),
    changeCount: integer("change_count").notNull().default(0),
    runId: bigint("run_id", { mode: "number" }),
    fetchedAt: createdNow("fetched_at"),
    acceptedReason: text("accepted_reason"),
  },
  (t) => [
    primaryKey({ columns: [t.listKey, t.startDate, t.endDate] }),
    check("coverage_order", sql`${t.startDate} <= ${t.endDate}`),
  ],
);

export const invalidItems = regwatch.table(
  "invalid_items",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    listKey: text("list_key").notNull(),
    windowStart: day("window_start").notNull(),
    windowEnd: day("window_end").notNull(),
    changeDate: text("change_date").notNull(),
    taxId: text("tax_id").notNull(),
    reason: text("reason").notNull(),
    item: text("item").notNull(),
    runId: bigint("run_id", { mode: "number" }),
    seenAt: createdNow("seen_at"),
    resolvedAt: instant("resolved_at"),
    resolution: text("resolution"),
  },
  (t) => [index("invalid_items_open").on(t.listKey, t.windowStart).where(sql`${t.resolvedAt} is null`)],
);

export const changes = regwatch.table(
  "changes",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    taxId: text("tax_id").notNull(),
    changeDate: day("change_date").notNull(),
    chapter: text("chapter").notNull(),
    path: text("path").notNull(),
    changedHeadings: text("changed_headings").array().notNull().default(sql`'{}'::text[]`),
    raw: jsonb("raw").notNull(),
    firstSeenAt: createdNow("first_seen_at"),
    lastSeenAt: createdNow("last_seen_at"),
  },
  (t) => [
    unique("changes_identity").on(t.taxId, t.changeDate, t.chapter, t.path),
    index("changes_change_date").on(t.changeDate),
  ],
);

export const changeSources = regwatch.table(
  "change_sources",
  {
    // No foreign key: sources are written by the same statement as their change, and the
    // per-row trigger a foreign key adds would cost a third of the ingest rate.
    changeId: bigint("change_id", { mode: "number" }).notNull(),
    listKey: text("list_key").notNull(),
    firstSeenAt: createdNow("first_seen_at"),
  },
  (t) => [primaryKey({ columns: [t.changeId, t.listKey] }), index("change_sources_list").on(t.listKey)],
);

export const changeFiles = regwatch.table(
  "change_files",
  {
    path: text("path").primaryKey(),
    status: text("status").notNull().default("pending"),
    httpStatus: integer("http_status"),
    contentType: text("content_type"),
    sha256: text("sha256"),
    sizeBytes: bigint("size_bytes", { mode: "number" }),
    bodyJson: jsonb("body_json"),
    bodyBytes: bytea("body_bytes"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    firstSeenAt: createdNow("first_seen_at"),
    fetchedAt: instant("fetched_at"),
    updatedAt: createdNow("updated_at"),
    /** Null until a fetched body has been parsed; then parsed, unrecognised or failed. */
    parseStatus: text("parse_status"),
    parser: text("parser"),
    parseError: text("parse_error"),
    parsedAt: instant("parsed_at"),
  },
  (t) => [
    check("change_files_status", sql`${t.status} in ('pending', 'fetched', 'failed', 'refused', 'skipped')`),
    check(
      "change_files_parse_status",
      sql`${t.parseStatus} is null or ${t.parseStatus} in ('parsed', 'unrecognised', 'failed')`,
    ),
    // The fetcher pages through open files by path; this index serves exactly that query.
    index("change_files_open").on(t.path).where(sql`${t.status} in ('pending', 'failed')`),
  ],
);

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
    check("runs_trigger", sql`${t.trigger} in ('cli', 'schedule', 'catchup')`),
    index("runs_kind_started").on(t.kind, t.startedAt),
  ],
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

export const businesses = regwatch.table("businesses", {
  taxId: text("tax_id").primaryKey(),
  type: text("type"),
  statusCode: integer("status_code"),
  fullName: text("full_name"),
  shortName: text("short_name"),
  address: text("address"),
  taxNumber: text("tax_number"),
  registrationNumber: text("registration_number"),
  record: jsonb("record").notNull(),
  /** Every record the search returned for this tax base number (two when it changed business type). */
  records: jsonb("records").notNull().default(sql`'[]'::jsonb`),
  fetchedAt: createdNow("fetched_at"),
});

/** One row per changed heading of a change, parsed from its change file. */
export const changeValues = regwatch.table(
  "change_values",
  {
    changeId: bigint("change_id", { mode: "number" }).notNull(),
    heading: text("heading").notNull(),
    taxId: text("tax_id").notNull(),
    changeDate: day("change_date").notNull(),
    oldValue: jsonb("old_value"),
    newValue: jsonb("new_value"),
    /** The change file the values were read from. */
    path: text("path").notNull(),
    parsedAt: createdNow("parsed_at"),
  },
  (t) => [
    primaryKey({ columns: [t.changeId, t.heading] }),
    index("change_values_tax_date").on(t.taxId, t.changeDate),
    index("change_values_heading_date").on(t.heading, t.changeDate),
  ],
);

/**
 * The latest known facts of a business, whatever their source: a search record (lookup, watch
 * add by registration number), an operator's name (watch add/import), or a parsed change file.
 * `headings` maps every known heading to `{value, as_of, source}`.
 */
export const businessProfiles = regwatch.table("business_profiles", {
  taxId: text("tax_id").primaryKey(),
  name: text("name"),
  nameAsOf: day("name_as_of"),
  nameSource: text("name_source"),
  type: text("type"),
  registrationNumber: text("registration_number"),
  statusCode: integer("status_code"),
  statusAsOf: day("status_as_of"),
  seat: text("seat"),
  headings: jsonb("headings").notNull().default(sql`'{}'::jsonb`),
  /** The search record the business was first known by: the baseline changes are applied to. */
  baseline: jsonb("baseline"),
  baselineAsOf: day("baseline_as_of"),
  updatedAt: createdNow("updated_at"),
});
