/**
 * `regwatch grant-reader ROLE [--account NAME]`: read-only access to schema regwatch for a BI role
 * or, with an accounts file, to the chosen account's schema only (the grants themselves are
 * src/db/grants.ts). The role name is checked here, before any connection.
 */
import type { Command } from "commander";
import { grantReader } from "../db/grants.ts";
import { EXIT, UsageError } from "../errors.ts";
import { type AccountFlag, accountOption } from "./account-option.ts";
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

export function registerGrantReader(program: Command): void {
  program
    .command("grant-reader")
    .description(
      "give an existing role read-only access to schema regwatch (tables and views, now and later)",
    )
    .argument("<role>", "name of an existing Postgres role")
    .addOption(accountOption())
    .action((rawRole: string, opts: AccountFlag) =>
      runAction(
        async (ctx) => {
          const role = checkRoleName(rawRole);
          const schema = await withDatabase(ctx, async (db) => {
            await grantReader(db.sql, role, db.schema);
            return db.schema;
          });
          process.stdout.write(
            `role "${role}" may now read every table and view of schema ${schema}, including ones added later\n`,
          );
          return EXIT.ok;
        },
        { account: opts.account, withoutKeys: true },
      ),
    );
}
