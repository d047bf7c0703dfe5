/**
 * The `regwatch` command line over a table of commands: only the command being run is imported
 * (with its libraries), so `--help` and `--version` start fast. The overview lists every command
 * of the table; commander reports argument errors, which exit 64. src/cli.ts runs it over every
 * command, src/cli-status.ts over `status` alone.
 */
import { Command, CommanderError } from "commander";
import { loadDotEnv } from "../dotenv.ts";
import { EXIT } from "../errors.ts";
import { packageVersion } from "../version.ts";
import type { CommandEntry } from "./table.ts";

/** The command named on the command line (`regwatch help NAME` included), if any. */
function requestedCommand(
  argv: readonly string[],
  commands: readonly CommandEntry[],
): CommandEntry | undefined {
  const args = argv.slice(2);
  const name = args[0] === "help" ? args[1] : args[0];
  return commands.find((c) => c.name === name);
}

export async function runCli(argv: readonly string[], commands: readonly CommandEntry[]): Promise<void> {
  loadDotEnv();
  const program = new Command()
    .name("regwatch")
    .description("Keeps a Postgres database in step with a business registry's watch service.")
    .version(packageVersion(), "-V, --version", "print the version of regwatch")
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride();

  const wanted = requestedCommand(argv, commands);
  if (wanted) {
    (await wanted.load())(program);
  } else {
    // Overview or an unknown command: names and summaries only, no command module loaded.
    for (const entry of commands) program.command(entry.name).description(entry.summary);
  }

  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    const benign = ["commander.helpDisplayed", "commander.help", "commander.version"].includes(error.code);
    process.exitCode = benign ? EXIT.ok : EXIT.usage;
  }
}
