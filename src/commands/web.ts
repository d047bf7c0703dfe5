/**
 * `regwatch web`: the web console on its own (the daemon serves it too with --web). Stops on
 * SIGTERM/SIGINT after the requests in flight.
 */
import type { Command } from "commander";
import { loadAccounts } from "../accounts.ts";
import { secretsOf } from "../config.ts";
import { runMigrations } from "../db/migrate.ts";
import { EXIT } from "../errors.ts";
import { favourMemoryOverCollections } from "../heap-growth.ts";
import { createLogger } from "../logger.ts";
import { startConsole } from "../web/server.ts";
import { parseNonNegativeInt } from "./arg-parsers.ts";
import { runAction, withDatabase } from "./context.ts";

export function registerWeb(program: Command): void {
  program
    .command("web")
    .description("serve the web console: alert inbox, businesses, changes, payments, coverage, runs, lists")
    .option("--host <host>", "interface to listen on (REGWATCH_WEB_HOST, 127.0.0.1 by default)")
    .option(
      "--port <port>",
      "port to listen on (REGWATCH_WEB_PORT, 8080 by default; 0 = any free port)",
      parseNonNegativeInt,
    )
    .addHelpText(
      "after",
      [
        "",
        "Sign-in is required: add a user first with `regwatch users add NAME --role admin --password-stdin`.",
        "Behind a TLS proxy, set REGWATCH_WEB_SECURE_COOKIES=true.",
        "With REGWATCH_ACCOUNTS_FILE, a user sees the accounts given with `regwatch users grant NAME --account A`.",
      ].join("\n"),
    )
    .action((opts: { host?: string; port?: number }) =>
      runAction(({ config }) => {
        favourMemoryOverCollections();
        const log = createLogger({ level: config.logLevel, secrets: secretsOf(config), fd: 1 });
        // A bad accounts file stops the console before it listens (78, naming the file).
        const accounts = loadAccounts(config);
        // With accounts, `db` is the fleet's home (schema regwatch): users, sessions, grants.
        return withDatabase({ config, log }, async (db) => {
          // Every account's schema is migrated here, at start: a page request never migrates.
          for (const account of accounts ?? []) {
            const { applied } = await runMigrations(db.url, account.schema, {
              registryTz: config.registryTz,
            });
            log.info({ applied, schema: account.schema, database: db.origin }, "migrations applied");
          }
          const host = opts.host ?? config.webHost;
          const running = await startConsole(
            { db, config, log, now: () => new Date(), accounts },
            { host, port: opts.port ?? config.webPort, portOption: "--port" },
          );
          // Listening for the stop before saying where the console is: a signal sent the moment
          // the line is read must find the handler there.
          const stopSignal = new Promise<NodeJS.Signals>((resolve) => {
            process.once("SIGTERM", resolve);
            process.once("SIGINT", resolve);
          });
          const shown = accounts ? `, ${accounts.length} account${accounts.length === 1 ? "" : "s"}` : "";
          log.info({ url: running.url }, `console on ${running.url} (sign in at /login${shown})`);
          const signal = await stopSignal;
          log.info({ signal }, "console stopping");
          await running.close();
          return EXIT.ok;
        });
      }),
    );
}
