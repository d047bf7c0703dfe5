/**
 * Read-only access to schema regwatch for a BI role. Tables and views that later migrations
 * create are covered too, through default privileges of the role that runs the migrations (the
 * one running `regwatch grant-reader`, which must also own the schema).
 */
import { InputError } from "../errors.ts";
import { DEFAULT_SCHEMA, type Sql } from "./connect.ts";

/** Grants USAGE on the schema, SELECT on every table and view, and SELECT on those created later. */
export async function grantReader(sql: Sql, role: string, schema = DEFAULT_SCHEMA): Promise<void> {
  const [found] = await sql<{ exists: boolean }[]>`
    select exists(select 1 from pg_roles where rolname = ${role}) as exists`;
  if (!found?.exists) {
    throw new InputError(
      `role "${role}" does not exist; create it first, e.g. CREATE ROLE "${role}" LOGIN PASSWORD '...'`,
    );
  }
  await sql.begin(async (tx) => {
    await tx`grant usage on schema ${tx(schema)} to ${tx(role)}`;
    await tx`grant select on all tables in schema ${tx(schema)} to ${tx(role)}`;
    await tx`alter default privileges in schema ${tx(schema)} grant select on tables to ${tx(role)}`;
  });
}
