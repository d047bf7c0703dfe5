/**
 * Remote watch lists and their items as last seen, the desired state people and other systems
 * write, and what regwatch has asked the registry for.
 */
import { sql } from "drizzle-orm";
import { bigint, boolean, check, integer, primaryKey, text } from "drizzle-orm/pg-core";
import { createdNow, day, instant, regwatch } from "./columns.ts";

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
