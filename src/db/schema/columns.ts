/** The Postgres schema every table lives in, and the column shapes the tables share. */
import { customType, date, pgSchema, timestamp } from "drizzle-orm/pg-core";

export const regwatch = pgSchema("regwatch");

export const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "bytea" });
export const day = (name: string) => date(name, { mode: "string" });
export const instant = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
export const createdNow = (name: string) => instant(name).notNull().defaultNow();
