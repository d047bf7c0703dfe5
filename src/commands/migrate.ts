import type { Command } from "commander";
import { openDatabase } from "../db/connect.ts";
import { runMigrations } from "../db/migrate.ts";
import { EXIT } from "../errors.ts";
import { runAction } from "./context.ts";

export function registerMigrate(program: Command): void {
  program
    .command("migrate")
    .description("apply pending database migrations (running it again is harmless)")
    .action(() =>
      runAction(async ({ config, log }) => {
        const db = await openDatabase(config);
        try {
          const { applied } = await runMigrations(db.url, db.schema);
          log.info({ applied, database: db.origin }, "migrations applied");
          process.stdout.write(
            applied === 0
              ? "regwatch: schema is up to date\n"
              : `regwatch: applied ${applied} migration(s)\n`,
          );
        } finally {
          await db.close();
        }
        return EXIT.ok;
      }),
    );
}
