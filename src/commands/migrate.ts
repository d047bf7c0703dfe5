/**
 * `regwatch migrate`: applies pending migrations. Without an accounts file, to schema regwatch;
 * with one, to schema regwatch (the fleet's home) and then to every account's schema, new accounts
 * included, one line each, after installing or upgrading the job queue's schema: accounts already
 * current are found with one statement, the others are migrated a few at once, one transaction each. The accounts'
 * keys are not needed: no registry is called.
 */
import type { Command } from "commander";
import { loadAccounts } from "../accounts.ts";
import { DEFAULT_SCHEMA, openDatabase } from "../db/connect.ts";
import { runMigrations } from "../db/migrate.ts";
import { MIGRATE_PARALLEL, migrateSchemas } from "../db/migrate-accounts.ts";
import { EXIT } from "../errors.ts";
import { installQueue } from "../fleet/queue.ts";
import { FLEET_SCHEMA, rebuildFleetViews } from "../fleet/sql/views.ts";
import { runAction } from "./context.ts";

export function registerMigrate(program: Command): void {
  program
    .command("migrate")
    .description("apply pending database migrations (running it again is harmless)")
    .action(() =>
      runAction(async ({ config, log }) => {
        const accounts = loadAccounts(config);
        const db = await openDatabase(config, { max: MIGRATE_PARALLEL + 1 });
        try {
          if (accounts === undefined) {
            const { applied } = await runMigrations(db.url, db.schema, { registryTz: config.registryTz });
            log.info({ applied, database: db.origin }, "migrations applied");
            process.stdout.write(
              applied === 0 ? "schema is up to date\n" : `applied ${applied} migration(s)\n`,
            );
            return EXIT.ok;
          }
          // The job queue's own schema (graphile_worker) first: workers and the daemon need it too.
          await installQueue(db.url, log);
          process.stdout.write("job queue (schema graphile_worker) is up to date\n");
          // The home schema first (the accounts' schemas are the fleet's), then the accounts, a few
          // at once; those already current are found with one statement over every journal.
          const say = ({ schema, applied }: { schema: string; applied: number }) => {
            log.info({ applied, schema, database: db.origin }, "migrations applied");
            process.stdout.write(
              applied === 0
                ? `schema ${schema} is up to date\n`
                : `schema ${schema}: applied ${applied} migration(s)\n`,
            );
          };
          const registryTz = config.registryTz;
          await migrateSchemas(db.pool, [DEFAULT_SCHEMA], { onSchema: say, registryTz });
          await migrateSchemas(
            db.pool,
            accounts.map((a) => a.schema),
            { onSchema: say, registryTz },
          );
          // Every account is current now: the fleet's views show exactly the accounts of the file.
          await rebuildFleetViews(
            db.pool,
            accounts.map((a) => ({ account: a.name, schema: a.schema })),
          );
          process.stdout.write(`fleet views (schema ${FLEET_SCHEMA}) show ${accounts.length} account(s)\n`);
        } finally {
          await db.close();
        }
        return EXIT.ok;
      }),
    );
}
