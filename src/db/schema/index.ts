/**
 * The regwatch schema (Postgres schema `regwatch`), as drizzle-kit reads it to generate
 * migrations. Table names and key columns are a contract that BI tools and harnesses read
 * (docs/contracts.md); further columns may be added freely. Views live in SQL migrations, next to
 * the comments that document every table and column.
 */
export * from "./alerts.ts";
export * from "./changes.ts";
export * from "./columns.ts";
export * from "./console.ts";
export * from "./fleet.ts";
export * from "./given-names.ts";
export * from "./lists.ts";
export * from "./payments.ts";
export * from "./readers.ts";
export * from "./retention.ts";
export * from "./runs.ts";
