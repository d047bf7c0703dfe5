/**
 * `regwatch db`: reach the database regwatch uses from other tools. `url` prints its connection
 * URL; `start` leaves the embedded server running after regwatch exits (for psql or a BI tool)
 * until `stop`. Other regwatch commands attach to a running embedded server and leave it running.
 */
import type { Command } from "commander";
import { embeddedInfo, startEmbedded, stopEmbedded } from "../db/embedded.ts";
import { runMigrations } from "../db/migrate.ts";
import { EXIT, UsageError } from "../errors.ts";
import { runAction } from "./context.ts";

/** The URL with its password replaced, for printing where others may read it. */
export function maskPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.password) return url;
    parsed.password = "****";
    return parsed.href;
  } catch {
    return "(DATABASE_URL is not a URL)";
  }
}

export function registerDb(program: Command): void {
  const db = program
    .command("db")
    .description(
      "the database in use: print its URL, or keep the embedded server up for BI tools (start, stop)",
    );

  db.command("url")
    .description("print the connection URL of the database in use (DATABASE_URL, else the embedded one)")
    .option("--show-password", "print the password instead of ****")
    .action((opts: { showPassword?: boolean }) =>
      runAction(async ({ config }) => {
        const show = (url: string) => (opts.showPassword ? url : maskPassword(url));
        if (config.databaseUrl) {
          process.stdout.write(`${show(config.databaseUrl)}\n`);
          return EXIT.ok;
        }
        const info = await embeddedInfo(config.dataDir);
        if (!info) {
          throw new UsageError(
            `no embedded database in ${config.dataDir} yet: run \`regwatch db start\` (or any command) to create it`,
          );
        }
        process.stdout.write(`${show(info.url)}\n`);
        if (!info.running)
          process.stderr.write("note: the embedded server is not running; `regwatch db start` starts it\n");
        return EXIT.ok;
      }),
    );

  db.command("start")
    .description("start the embedded Postgres (migrated) and leave it running until `regwatch db stop`")
    .action(() =>
      runAction(async ({ config }) => {
        if (config.databaseUrl) {
          throw new UsageError(
            "DATABASE_URL is set, so regwatch uses that database: there is nothing to start",
          );
        }
        const server = await startEmbedded(config.dataDir);
        await runMigrations(server.url, undefined, { registryTz: config.registryTz });
        // A connection opened and closed here must not stop the server, so none goes through
        // openDatabase's stop-when-last rule: the server stays until `db stop`.
        process.stdout.write(
          `${server.owned ? "started" : "already running"}: ${maskPassword(server.url)}\n` +
            "it keeps running until `regwatch db stop`; `regwatch db url --show-password` prints the full URL\n",
        );
        return EXIT.ok;
      }),
    );

  db.command("stop")
    .description("stop the embedded Postgres (regwatch commands start it again when they need it)")
    .action(() =>
      runAction(async ({ config }) => {
        if (config.databaseUrl)
          throw new UsageError("DATABASE_URL is set: regwatch does not run that server");
        const stopped = await stopEmbedded(config.dataDir);
        process.stdout.write(stopped ? "stopped\n" : "the embedded server was not running\n");
        return EXIT.ok;
      }),
    );
}
