/**
 * Coverage, the changes the registry reported, their files and the values parsed from them, and
 * what is known of each business (search records, profiles).
 */
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  primaryKey,
  text,
  unique,
} from "drizzle-orm/pg-core";
import { bytea, createdNow, day, instant, regwatch } from "./columns.ts";

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
    // The feed's order (newest day, then business) and every day range (migration 0044).
    index("changes_feed_order").on(t.changeDate.desc().nullsFirst(), t.taxId),
    // The console's count of open bank-account changes (migration 0024).
    index("changes_bank_accounts").on(t.id).where(sql`'bank_accounts' = any (${t.changedHeadings})`),
    // High changes by heading (migration 0043); the count cards read inbox_open_changes since 0055.
    index("changes_high_headings")
      .on(t.id)
      .where(
        sql`${t.changedHeadings} && ARRAY['bank_accounts', 'long_name', 'short_name', 'full_name', 'name']::text[]`,
      ),
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
  (t) => [
    primaryKey({ columns: [t.changeId, t.listKey] }),
    index("change_sources_list").on(t.listKey),
    // BRIN (autosummarize on): the alert scan finds the sources a run added (migration 0018).
    index("change_sources_first_seen").using("brin", t.firstSeenAt).with({ autosummarize: "on" }),
  ],
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
    /** With status failed: the database refuses the body whatever the try; only reparse or a refetch tries again. */
    failedForGood: boolean("failed_for_good").notNull().default(false),
    firstSeenAt: createdNow("first_seen_at"),
    fetchedAt: instant("fetched_at"),
    updatedAt: createdNow("updated_at"),
    /** Null until a fetched body has been parsed; then parsed, unrecognised, unattributed or failed. */
    parseStatus: text("parse_status"),
    parser: text("parser"),
    parseError: text("parse_error"),
    parsedAt: instant("parsed_at"),
    /**
     * The changes pointing to the file and the day of the newest: the file phase and the parser
     * find a file's changes through them (changes has no index on path; see migration 0014).
     */
    changeIds: bigint("change_ids", { mode: "number" }).array().notNull().default(sql`'{}'::bigint[]`),
    newestChange: day("newest_change"),
    /** The day the retention policy removed the stored body (migration 0053); reparse skips it. */
    bodyRemovedOn: day("body_removed_on"),
  },
  (t) => [
    check("change_files_status", sql`${t.status} in ('pending', 'fetched', 'failed', 'refused', 'skipped')`),
    check(
      "change_files_parse_status",
      sql`${t.parseStatus} is null or ${t.parseStatus} in ('parsed', 'unrecognised', 'failed', 'unattributed')`,
    ),
  ],
);

/** One row per changed heading of a change, parsed from its change file. */
export const changeValues = regwatch.table(
  "change_values",
  {
    changeId: bigint("change_id", { mode: "number" }).notNull(),
    heading: text("heading").notNull(),
    taxId: text("tax_id").notNull(),
    changeDate: day("change_date").notNull(),
    oldValue: jsonb("old_value"),
    /** False when the file gave no old_value: old_value is null but not known to be. */
    oldValueKnown: boolean("old_value_known").notNull().default(true),
    newValue: jsonb("new_value"),
    /** The change file the values were read from. */
    path: text("path").notNull(),
    parsedAt: createdNow("parsed_at"),
    /** Position among the business's same-day values of the heading (chained old → new); null when ambiguous. */
    dayOrder: integer("day_order"),
    orderAmbiguous: boolean("order_ambiguous").notNull().default(false),
    /** The file gave the heading twice or more for the change and its values do not chain. */
    fileOrderAmbiguous: boolean("file_order_ambiguous").notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.changeId, t.heading] }),
    index("change_values_tax_date").on(t.taxId, t.changeDate),
    index("change_values_heading_date").on(t.heading, t.changeDate),
    // The payment check finds an account's businesses by containment (migrations 0008, 0029).
    index("change_values_bank_accounts")
      .using("gin", t.newValue.op("jsonb_path_ops"))
      .where(sql`${t.heading} = 'bank_accounts'`),
    index("change_values_bank_accounts_old")
      .using("gin", t.oldValue.op("jsonb_path_ops"))
      .where(sql`${t.heading} = 'bank_accounts'`),
    // Changes that made a business ceased or suspended (migration 0039; what 0055's refresh probes).
    index("change_values_high_status")
      .on(t.changeId)
      .where(sql`${t.heading} in ('status', 'status_code') and (${t.newValue} #>> '{}') in ('0', '2')`),
  ],
);

/**
 * The latest known facts of a business, whatever their source: a search record (lookup, watch
 * add by registration number), an operator's name (watch add/import), or a parsed change file.
 * `headings` maps every known heading to `{value, as_of, source}`.
 */
export const businessProfiles = regwatch.table(
  "business_profiles",
  {
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
  },
  // Which businesses list an account, by containment (migration 0008).
  (t) => [
    index("business_profiles_bank_accounts").using(
      "gin",
      sql`(${t.headings} -> 'bank_accounts' -> 'value') jsonb_path_ops`,
    ),
  ],
);

export const businesses = regwatch.table(
  "businesses",
  {
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
  },
  // Which businesses list an account, in the registry's own spelling (migration 0008).
  (t) => [
    index("businesses_bank_accounts").using("gin", sql`(${t.record} -> 'bank_accounts') jsonb_path_ops`),
  ],
);
