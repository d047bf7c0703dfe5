/**
 * What every command shares: configuration parsed once, a logger that cannot print secrets,
 * the database opened by the one selection rule, and the mapping of errors to exit statuses.
 */
import { type Config, loadConfig, secretsOf } from "../config.ts";
import { unknownVariables, unknownVariableText } from "../config-unknown.ts";
import { type Database, type OpenOptions, openDatabase } from "../db/connect.ts";
import { classifyDatabaseError } from "../db/db-errors.ts";
import { migrationsCurrent } from "../db/migration-journal.ts";
import { coerceError, EXIT, type ExitCode, exitCodeOf, type Outcome, RegwatchError } from "../errors.ts";
import { terminalSafeLines } from "../formats/terminal-text.ts";
import { createLogger, type Logger } from "../logger.ts";
import { redactSecrets } from "../secrets.ts";
import { type AccountScope, configForCommand } from "./account-scope.ts";
import { commandLog } from "./log-router.ts";
import { failIfUnfinished } from "./unfinished.ts";

export interface Context {
  config: Config;
  log: Logger;
}

/**
 * Builds the context (for a command taking `--account`, whose options are passed as `account`,
 * the chosen account's configuration), runs the command body, and turns what it returns (an exit status, or a
 * job's outcome) or throws into the exit status, through `exitCodeOf`: the one place where
 * statuses and errors become exit codes. An outcome's error is said once, like a thrown one.
 */
export async function runAction(
  body: (ctx: Context) => Promise<ExitCode | Outcome | undefined>,
  account?: AccountScope,
): Promise<void> {
  let secrets: string[] = [];
  // Until the action settles, a drained event loop is a failure said in one line (unfinished.ts).
  await failIfUnfinished(settle(), (line) => sayLine(line, secrets));

  async function settle(): Promise<void> {
    try {
      // A command of one account (`account` given, even without a name) gets that account's config.
      const config = await configForCommand(loadConfig(), account);
      secrets = secretsOf(config);
      warnUnknownVariables();
      // Through the router: while a progress bar is drawn, lines go above it.
      const log = createLogger({ level: commandLogLevel(config), secrets, stream: commandLog });
      const result = (await body({ config, log })) ?? EXIT.ok;
      if (typeof result === "number") process.exitCode = result;
      else {
        if (result.error) sayFailure(coerceError(classifyDatabaseError(result.error)), secrets);
        process.exitCode = exitCodeOf(result);
      }
    } catch (thrown) {
      // A lost or read-only database is named in one line, whatever statement met it.
      const error = coerceError(classifyDatabaseError(thrown));
      sayFailure(error, secrets);
      process.exitCode = exitCodeOf(error);
    }
  }
}

/**
 * Once per command, on stderr: `REGWATCH_*` variables regwatch does not read (a typo next to the
 * right name is otherwise ignored in silence). `doctor` lists them among its checks as well.
 */
function warnUnknownVariables(): void {
  for (const unknown of unknownVariables(process.env))
    process.stderr.write(`regwatch: warning: ${unknownVariableText(unknown)}\n`);
}

function sayFailure(error: Error, secrets: readonly string[]): void {
  sayLine(error.message, secrets);
  if (!(error instanceof RegwatchError) && process.env.REGWATCH_LOG_LEVEL === "debug" && error.stack) {
    process.stderr.write(`${redactSecrets(error.stack, secrets)}\n`);
  }
}

/** `regwatch: MESSAGE` on stderr. */
function sayLine(message: string, secrets: readonly string[]): void {
  // A message may quote a server's answer or a file's cell: escaped, so that it cannot act on the terminal.
  process.stderr.write(`regwatch: ${terminalSafeLines(redactSecrets(message, secrets))}\n`);
}

/**
 * On a terminal a person reads the command's own output (summary, progress bar): JSON log lines
 * there are only warnings and errors unless REGWATCH_LOG_LEVEL asks for more. Elsewhere (CI,
 * a supervisor's log) the configured level, info by default, applies.
 */
export function commandLogLevel(
  config: Pick<Config, "logLevel">,
  env: NodeJS.ProcessEnv = process.env,
  terminal = Boolean(process.stderr.isTTY),
): string {
  if (env.REGWATCH_LOG_LEVEL || !terminal) return config.logLevel;
  return "warn";
}

/**
 * Opens the database, applies pending migrations, runs `fn`, and always closes it. A schema
 * already current is found with one query, without the migrator (its code or its connection). A short
 * command that only reads asks for `{ max: 1 }`: its queries are pipelined on one connection
 * instead of each opening a connection of its own (a new backend costs more than the query).
 */
export async function withDatabase<T>(
  ctx: Context,
  fn: (db: Database) => Promise<T>,
  options: OpenOptions = {},
): Promise<T> {
  const db = await openDatabase(ctx.config, options);
  try {
    // On the pool (the journal is named with its schema): one statement, not a transaction of
    // its own. The migrator is loaded only when something is pending.
    if (!(await migrationsCurrent(db.pool, db.schema)))
      await (await import("../db/migrate.ts")).runMigrations(db.url, db.schema, {
        registryTz: ctx.config.registryTz,
      });
    return await fn(db);
  } finally {
    await db.close();
  }
}
