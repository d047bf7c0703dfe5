/** Names people and files gave businesses, with where each came from (migration 0040). */
import { sql } from "drizzle-orm";
import { check, index, primaryKey, text } from "drizzle-orm/pg-core";
import { createdNow, regwatch } from "./columns.ts";

/**
 * One name per business and source (`file supplier-master.csv`, `user anna`, `earlier`): shown,
 * marked as given, until the registry's own name of the business is known.
 */
export const givenNames = regwatch.table(
  "given_names",
  {
    taxId: text("tax_id").notNull(),
    source: text("source").notNull(),
    name: text("name").notNull(),
    givenAt: createdNow("given_at"),
  },
  (t) => [
    // Named as the migration's `primary key` named it (drizzle's own name would differ).
    primaryKey({ name: "given_names_pkey", columns: [t.taxId, t.source] }),
    index("given_names_newest").on(t.taxId, t.givenAt.desc().nullsFirst()),
    check("given_names_tax_id", sql`${t.taxId} ~ '^[0-9]{8}$'`),
    check("given_names_source", sql`${t.source} ~ '^(file|user) .' OR ${t.source} = 'earlier'`),
    check("given_names_name", sql`btrim(${t.name}) <> '' AND length(${t.name}) <= 500`),
  ],
);
