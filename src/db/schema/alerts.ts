/**
 * Alert rules, alerts with their lifecycle, the delivery outbox and the scan cursor.
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
  smallint,
  text,
  unique,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { changes } from "./changes.ts";
import { createdNow, day, instant, regwatch } from "./columns.ts";

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
    /** Set when the rule is removed: it raises nothing more, its alerts and their history stay. */
    removedAt: instant("removed_at"),
    updatedAt: createdNow("updated_at"),
  },
  (t) => [
    // Only rules in use need unique names: a removed rule's name may be taken again.
    uniqueIndex("alert_rules_name").on(t.name).where(sql`${t.removedAt} is null`),
    check("alert_rules_channel", sql`${t.channel} in ('webhook', 'email', 'notify')`),
    check("alert_rules_removed_disabled", sql`${t.removedAt} is null or not ${t.enabled}`),
  ],
);

/** Every lifecycle action on an alert or a rule, never overwritten. */
export const alertEvents = regwatch.table(
  "alert_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    ruleId: bigint("rule_id", { mode: "number" })
      .notNull()
      .references(() => alertRules.id, { onDelete: "cascade" }),
    /** Null for an action on the rule itself. */
    alertId: bigint("alert_id", { mode: "number" }).references(() => alerts.id, { onDelete: "cascade" }),
    at: createdNow("at"),
    by: text("by").notNull(),
    action: text("action").notNull(),
    note: text("note"),
    snoozedUntil: day("snoozed_until"),
    /** A rule's settings before and after an add or edit. */
    details: jsonb("details"),
  },
  (t) => [
    check(
      "alert_events_action",
      sql`${t.action} in ('acknowledged', 'resolved', 'snoozed', 'reopened', 'commented', 'assigned', 'rule added', 'rule edited', 'rule paused', 'rule resumed', 'rule removed')`,
    ),
    index("alert_events_alert").on(t.alertId, t.id).where(sql`${t.alertId} is not null`),
    index("alert_events_rule").on(t.ruleId, t.id),
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
    /** The console user the alert is assigned to, by name; null when nobody. */
    assignedTo: text("assigned_to"),
  },
  (t) => [
    unique("alerts_rule_change").on(t.ruleId, t.changeId),
    check("alerts_status", sql`${t.status} in ('open', 'acknowledged', 'resolved', 'snoozed')`),
    check("alerts_snooze_date", sql`${t.status} <> 'snoozed' or ${t.snoozedUntil} is not null`),
    index("alerts_status").on(t.status),
    index("alerts_change").on(t.changeId),
    // The console's inbox: open alerts, newest first. Nulls first: Postgres's default for desc,
    // which the migrations' indexes have (drizzle's desc() alone says nulls last).
    index("alerts_open_newest").on(t.id.desc().nullsFirst()).where(sql`${t.status} = 'open'`),
    index("alerts_open_raised").on(t.raisedAt).where(sql`${t.status} = 'open'`),
    // The inbox groups a status's alerts per change, newest change first (migration 0039). The
    // migration's index also has INCLUDE (id, rule_id, assigned_to, raised_at), which drizzle
    // cannot say: a change of its included columns is written by hand.
    index("alerts_status_change").on(t.status, t.changeId.desc().nullsFirst()),
    // The inbox's count cards (migration 0043), with INCLUDE (raised_at, assigned_to) as above.
    index("alerts_open_change").on(t.changeId).where(sql`${t.status} = 'open'`),
    // The inbox's "assigned to me" card: a user's open alerts by change (migration 0055).
    index("alerts_open_assigned").on(t.assignedTo, t.changeId).where(sql`${t.status} = 'open'`),
  ],
);

/**
 * One row per change with an open alert, for the inbox's count cards: kept by triggers on alerts,
 * change_values and changes (migration 0055), so the cards read these rows instead of grouping
 * every open alert on each view.
 */
export const inboxOpenChanges = regwatch.table("inbox_open_changes", {
  changeId: bigint("change_id", { mode: "number" }).primaryKey(),
  openAlerts: integer("open_alerts").notNull(),
  /** When the change's newest open alert was raised. */
  newestRaisedAt: instant("newest_raised_at"),
  /** High by SEVERITY_RULE (src/alerts/severity.ts): a heading of its own, or a status now ceased or suspended. */
  high: boolean("high").notNull(),
  bankAccounts: boolean("bank_accounts").notNull(),
});

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
    /** Until when a deliverer holds the message; past it the message is due again. */
    leaseUntil: instant("lease_until"),
    /** The claim holding the lease: only it records the outcome. */
    leaseToken: text("lease_token"),
    /** E-mail: each recipient's outcome; a retry goes only to those not yet accepted. */
    recipients: jsonb("recipients"),
  },
  (t) => [
    unique("alert_deliveries_message_id").on(t.messageId),
    check("alert_deliveries_kind", sql`${t.kind} in ('alert', 'digest')`),
    check("alert_deliveries_status", sql`${t.status} in ('pending', 'sent', 'dead')`),
    index("alert_deliveries_due").on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index("alert_deliveries_order").on(t.oldestChange, t.id).where(sql`${t.status} = 'pending'`),
    index("alert_deliveries_lease")
      .on(t.leaseUntil)
      .where(sql`${t.status} = 'pending' and ${t.leaseUntil} is not null`),
    // The alerts' messages, by alert (migration 0006).
    index("alert_deliveries_alerts").using("gin", t.alertIds),
    index("alert_deliveries_pending_businesses")
      .using("gin", t.taxIds)
      .with({ fastupdate: "off" })
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
  /** Messages the scan queued. */
  queued: integer("queued").notNull().default(0),
  /** Highest changes.id scanned so far: the next run's new changes lie above it. */
  lastChangeId: bigint("last_change_id", { mode: "number" }).notNull(),
  scannedAt: createdNow("scanned_at"),
});

/**
 * How the delivery passes fare (migration 0046): one row, written when a pass fails and when the
 * first pass after a failure attempts a message cleanly; status, doctor, the console and /metrics read it.
 */
export const alertDeliveryHealth = regwatch.table(
  "alert_delivery_health",
  {
    id: smallint("id").primaryKey().default(1),
    failuresInRow: integer("failures_in_row").notNull().default(0),
    failuresTotal: bigint("failures_total", { mode: "number" }).notNull().default(0),
    failingSince: instant("failing_since"),
    lastFailedAt: instant("last_failed_at"),
    lastError: text("last_error"),
    lastFailureMessages: integer("last_failure_messages").notNull().default(0),
    recoveredAt: instant("recovered_at"),
  },
  (t) => [check("alert_delivery_health_id_check", sql`${t.id} = 1`)],
);
