/**
 * The regwatch schema (Postgres schema `regwatch`). Table names and key columns are a contract
 * that BI tools and harnesses read (docs/contracts.md); further columns may be added freely.
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
  numeric,
  pgSchema,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
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
  /** Day (registry zone) the list's items were last read into watched_items. */
  itemsReadOn: day("items_read_on"),
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

/** Desired lists dropped by an operator: reconcile may delete their remote lists (--allow-delete-lists). */
export const droppedLists = regwatch.table("dropped_lists", {
  listName: text("list_name").primaryKey(),
  listKey: text("list_key"),
  items: integer("items").notNull().default(0),
  droppedAt: createdNow("dropped_at"),
  deletedAt: instant("deleted_at"),
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
    /** Day reconcile adopted the item from a remote list it started to manage. */
    adoptedOn: day("adopted_on"),
    adoptedFrom: text("adopted_from"),
  },
  (t) => [primaryKey({ columns: [t.listName, t.taxId] })],
);

/** Remote lists regwatch manages: a desired list whose remote list is not here adopts its items first. */
export const managedLists = regwatch.table("managed_lists", {
  listKey: text("list_key").primaryKey(),
  listName: text("list_name").notNull(),
  managedSince: createdNow("managed_since"),
  adoptedOn: day("adopted_on"),
  adoptedItems: integer("adopted_items").notNull().default(0),
});

/** What regwatch asked for on each managed list: only these are ever removed. */
export const managedItems = regwatch.table(
  "managed_items",
  {
    listKey: text("list_key")
      .notNull()
      .references(() => managedLists.listKey, { onDelete: "cascade" }),
    taxId: text("tax_id").notNull(),
    adopted: boolean("adopted").notNull().default(false),
    askedAt: createdNow("asked_at"),
    runId: bigint("run_id", { mode: "number" }),
  },
  (t) => [primaryKey({ columns: [t.listKey, t.taxId] })],
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
  (t) => [
    primaryKey({ columns: [t.changeId, t.listKey] }),
    index("change_sources_list").on(t.listKey),
    // BRIN (autosummarize on): the alert scan finds the sources a run added (migration 0018).
    index("change_sources_first_seen").using("brin", t.firstSeenAt),
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
  },
  (t) => [
    check("change_files_status", sql`${t.status} in ('pending', 'fetched', 'failed', 'refused', 'skipped')`),
    check(
      "change_files_parse_status",
      sql`${t.parseStatus} is null or ${t.parseStatus} in ('parsed', 'unrecognised', 'failed', 'unattributed')`,
    ),
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

/** Alert rules: which changes (lists, headings) are reported, to whom and how. */
export const alertRules = regwatch.table(
  "alert_rules",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    name: text("name").notNull(),
    /** Watch list names or keys; empty means every list. */
    lists: text("lists").array().notNull().default(sql`'{}'::text[]`),
    /** Headings; empty means every heading. */
    headings: text("headings").array().notNull().default(sql`'{}'::text[]`),
    channel: text("channel").notNull(),
    target: text("target").notNull(),
    digest: boolean("digest").notNull().default(false),
    enabled: boolean("enabled").notNull().default(true),
    createdAt: createdNow("created_at"),
  },
  (t) => [
    unique("alert_rules_name").on(t.name),
    check("alert_rules_channel", sql`${t.channel} in ('webhook', 'email', 'notify')`),
  ],
);

/** One alert per (rule, change), with its lifecycle. */
export const alerts = regwatch.table(
  "alerts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    ruleId: bigint("rule_id", { mode: "number" })
      .notNull()
      .references(() => alertRules.id, { onDelete: "cascade" }),
    changeId: bigint("change_id", { mode: "number" })
      .notNull()
      .references(() => changes.id, { onDelete: "cascade" }),
    runId: bigint("run_id", { mode: "number" }),
    status: text("status").notNull().default("open"),
    snoozedUntil: day("snoozed_until"),
    statusBy: text("status_by"),
    statusNote: text("status_note"),
    statusAt: instant("status_at"),
    raisedAt: createdNow("raised_at"),
  },
  (t) => [
    unique("alerts_rule_change").on(t.ruleId, t.changeId),
    check("alerts_status", sql`${t.status} in ('open', 'acknowledged', 'resolved', 'snoozed')`),
    check("alerts_snooze_date", sql`${t.status} <> 'snoozed' or ${t.snoozedUntil} is not null`),
    index("alerts_status").on(t.status),
    index("alerts_change").on(t.changeId),
  ],
);

/** The outbox: one row per message and target; every retry keeps `message_id`. */
export const alertDeliveries = regwatch.table(
  "alert_deliveries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    messageId: text("message_id")
      .notNull()
      .default(sql`('msg_' || replace(gen_random_uuid()::text, '-', ''))`),
    ruleId: bigint("rule_id", { mode: "number" })
      .notNull()
      .references(() => alertRules.id, { onDelete: "cascade" }),
    runId: bigint("run_id", { mode: "number" }),
    kind: text("kind").notNull(),
    alertIds: bigint("alert_ids", { mode: "number" }).array().notNull(),
    channel: text("channel").notNull(),
    target: text("target").notNull(),
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: createdNow("next_attempt_at"),
    lastAttemptAt: instant("last_attempt_at"),
    lastStatus: integer("last_status"),
    lastReply: text("last_reply"),
    lastError: text("last_error"),
    /** Fixed at the first attempt, so every retry sends the same body. */
    payload: jsonb("payload"),
    createdAt: createdNow("created_at"),
    sentAt: instant("sent_at"),
    /** Businesses the message reports: it waits for older pending messages about them to its target. */
    taxIds: text("tax_ids").array().notNull().default(sql`'{}'::text[]`),
    /** Day of the oldest change reported: the outbox's order. */
    oldestChange: day("oldest_change").notNull(),
  },
  (t) => [
    unique("alert_deliveries_message_id").on(t.messageId),
    check("alert_deliveries_kind", sql`${t.kind} in ('alert', 'digest')`),
    check("alert_deliveries_status", sql`${t.status} in ('pending', 'sent', 'dead')`),
    index("alert_deliveries_due").on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index("alert_deliveries_order").on(t.oldestChange, t.id).where(sql`${t.status} = 'pending'`),
    index("alert_deliveries_pending_businesses")
      .using("gin", t.taxIds)
      .with({ fastupdate: false })
      .where(sql`${t.status} = 'pending'`),
  ],
);

/** Every heading the data has named, kept by the alert scan; `alerts rule add` checks against it. */
export const seenHeadings = regwatch.table("seen_headings", {
  heading: text("heading").primaryKey(),
  firstSeenAt: createdNow("first_seen_at"),
});

/** Runs whose first-stored changes have been turned into alerts: the durable cursor. */
export const alertScans = regwatch.table("alert_scans", {
  runId: bigint("run_id", { mode: "number" }).primaryKey(),
  raised: integer("raised").notNull(),
  /** Highest changes.id scanned so far: the next run's new changes lie above it. */
  lastChangeId: bigint("last_change_id", { mode: "number" }).notNull(),
  scannedAt: createdNow("scanned_at"),
});
/**
 * Every list of bank accounts a business's search record showed, from the first read that showed
 * it; a trigger on businesses keeps it (migration 0016), v_bank_accounts reads it.
 */
export const searchBankAccounts = regwatch.table(
  "search_bank_accounts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    taxId: text("tax_id").notNull(),
    seenAt: instant("seen_at").notNull(),
    bankAccounts: text("bank_accounts").array().notNull(),
  },
  (t) => [index("search_bank_accounts_tax_id").on(t.taxId, t.id)],
);

/** Payment rows checked by `payments check --record`, one per payment, with the verdict. */
export const paymentChecks = regwatch.table(
  "payment_checks",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    batchId: uuid("batch_id").notNull(),
    checkedAt: createdNow("checked_at"),
    line: integer("line").notNull(),
    taxId: text("tax_id").notNull(),
    bankAccount: text("bank_account").notNull(),
    verdict: text("verdict").notNull(),
    detail: text("detail"),
    /** What to do before the payment may go; null for ok. */
    nextStep: text("next_step"),
    amount: numeric("amount"),
    currency: text("currency"),
    reference: text("reference"),
  },
  (t) => [
    index("payment_checks_batch").on(t.batchId),
    index("payment_checks_checked_at").on(t.checkedAt),
    check(
      "payment_checks_verdict",
      sql`${t.verdict} in ('invalid_tax_id', 'invalid_account', 'business_ceased', 'business_suspended', 'account_not_registered', 'account_recently_changed', 'account_change_unverified', 'unknown_business', 'not_watched', 'ok')`,
    ),
  ],
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
