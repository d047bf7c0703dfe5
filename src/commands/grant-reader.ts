/**
 * `regwatch grant-reader ROLE`: read-only access to schema regwatch for a BI role. Tables and
 * views that later migrations create are covered too, through default privileges of the role
 * that runs the migrations (the one running this command, which must also own the schema).
 */
import type { Command } from "commander";
import type { Sql } from "../db/connect.ts";
import { EXIT, InputError, UsageError } from "../errors.ts";
import { runAction, withDatabase } from "./context.ts";

/** A plain identifier; anything stranger is refused rather than quoted into SQL. */
const ROLE_NAME = /^[A-Za-z_][A-Za-z0-9_$-]{0,62}$/;

export function checkRoleName(raw: string): string {
  if (!ROLE_NAME.test(raw)) {
    throw new UsageError(
      `role name "${raw}" must start with a letter or underscore and hold only letters, digits, _, $ or - (at most 63)`,
    );
  }
  if (/^pg_/i.test(raw) || raw.toLowerCase() === "public") {
    throw new UsageError(`role name "${raw}" is reserved by Postgres; grant to a role of your own`);
  }
  return raw;
}

/** Grants USAGE on the schema, SELECT on every table and view, and SELECT on those created later. */
export async function grantReader(sql: Sql, role: string): Promise<void> {
  const [found] = await sql<{ exists: boolean }[]>`
    select exists(select 1 from pg_roles where rolname = ${role}) as exists`;
  if (!found?.exists) {
    throw new InputError(
      `role "${role}" does not exist; create it first, e.g. CREATE ROLE "${role}" LOGIN PASSWORD '...'`,
    );
  }
  await sql.begin(async (tx) => {
    await tx`grant usage on schema regwatch to ${tx(role)}`;
    await tx`grant select on all tables in schema regwatch to ${tx(role)}`;
    await tx`alter default privileges in schema regwatch grant select on tables to ${tx(role)}`;
  });
}

export function registerGrantReader(program: Command): void {
  program
    .command("grant-reader")
    .description(
      "give an existing role read-only access to schema regwatch (tables and views, now and later)",
    )
    .argument("<role>", "name of an existing Postgres role")
    .action((rawRole: string) =>
      runAction(async (ctx) => {
        const role = checkRoleName(rawRole);
        await withDatabase(ctx, (db) => grantReader(db.sql, role));
        process.stdout.write(
          `role "${role}" may now read every table and view of schema regwatch, including ones added later\n`,
        );
        return EXIT.ok;
      }),
    );
}
