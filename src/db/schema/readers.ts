/**
 * Roles given read access (`regwatch grant-reader`), so that each migration can apply their
 * grants again: data tables added later reach them, private ones never do (src/db/reader-classes.ts).
 */
import { text } from "drizzle-orm/pg-core";
import { createdNow, regwatch } from "./columns.ts";

export const readerRoles = regwatch.table("reader_roles", {
  role: text("role").primaryKey(),
  grantedAt: createdNow("granted_at"),
});
