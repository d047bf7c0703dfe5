/**
 * `regwatch grant-reader ROLE [--account NAME]`: read-only access to the data of schema regwatch
 * for a BI role or, with an accounts file, of the chosen account's schema only; never the
 * console's sign-in tables or where alert messages go (the grants themselves are src/db/grants.ts,
 * what is data src/db/reader-classes.ts). The role name is checked here, before any connection.
 */
import type { Command } from "commander";
import { loadAccounts } from "../accounts.ts";
import { grantReader, requireRole } from "../db/grants.ts";
import { PRIVATE_COLUMNS, type ReaderGrantPlan } from "../db/reader-classes.ts";
import { ConfigError, EXIT, type ExitCode, UsageError } from "../errors.ts";
import { FLEET_SCHEMA, grantFleetReader } from "../fleet/sql/views.ts";
import { type AccountFlag, accountOption } from "./account-option.ts";
import { type Context, runAction, withDatabase } from "./context.ts";

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
      "give an existing role read-only access to the data of schema regwatch (never sign-in data or alert targets)",
    )
    .argument("<role>", "name of an existing Postgres role")
    .addOption(accountOption())
    .option(
      "--fleet",
      `read every account of the accounts file: the views of schema ${FLEET_SCHEMA} (each with an account column) and each account's data`,
    )
    .action((rawRole: string, opts: AccountFlag & { fleet?: boolean }) => {
      if (opts.fleet) {
        if (opts.account !== undefined)
          return runAction(async () => {
            throw new UsageError("--fleet and --account exclude each other: --fleet grants every account");
          });
        return runAction((ctx) => grantFleet(ctx, checkRoleName(rawRole)));
      }
      return runAction(
        async (ctx) => {
          const role = checkRoleName(rawRole);
          const { schema, plan } = await withDatabase(ctx, async (db) => ({
            schema: db.schema,
            plan: await grantReader(db.sql, role, db.schema),
          }));
          process.stdout.write(`${grantReport(role, schema, plan)}\n`);
          return EXIT.ok;
        },
        { account: opts.account, withoutKeys: true },
      );
    });
}

/** `grant-reader ROLE --fleet`: the fleet's views and every account's data (fleet/sql/views.ts). */
async function grantFleet(ctx: Context, role: string): Promise<ExitCode> {
  const accounts = loadAccounts(ctx.config);
  if (!accounts)
    throw new ConfigError([
      "REGWATCH_ACCOUNTS_FILE: required by `grant-reader --fleet` (it grants the accounts it lists)",
    ]);
  await withDatabase(ctx, async (db) => {
    await requireRole(db.sql, role);
    await grantFleetReader(
      db.pool,
      role,
      accounts.map((a) => ({ account: a.name, schema: a.schema })),
    );
  });
  process.stdout.write(
    `${[
      `role "${role}" may now read the fleet: the views of schema ${FLEET_SCHEMA} over ${accounts.length} account(s), each row with its account, and each account's data`,
      "not readable: sign-in data and alert targets of any account",
      "`regwatch migrate` keeps the views in step with the accounts file, and gives the role the data of accounts added to it",
    ].join("\n")}\n`,
  );
  return EXIT.ok;
}

/** What the role may read now, and what it may not. */
export function grantReport(role: string, schema: string, plan: ReaderGrantPlan): string {
  const partial = plan.columns
    .map((c) => `${c.table} without ${(PRIVATE_COLUMNS[c.table] ?? []).join(", ")}`)
    .join("; ");
  return [
    `role "${role}" may now read the data of schema ${schema}: ${plan.full.length} tables and views in full${partial ? `, and ${partial}` : ""}`,
    `not readable: ${plan.withheld.join(", ") || "nothing"} (sign-in data and alert targets stay private)`,
    "`regwatch migrate` applies these grants again after an upgrade: new data tables reach the role, private ones never do",
  ].join("\n");
}
