/**
 * The `regwatch` command line. Each command lives in its own file under commands/; only the one
 * being run is imported (with its libraries), so `--help` and `--version` start fast. The overview
 * lists every command from the table below; commander reports argument errors, which exit 64.
 */
import { Command, CommanderError } from "commander";
import { COMMANDS, type CommandEntry } from "./commands/table.ts";
import { loadDotEnv } from "./dotenv.ts";
import { EXIT } from "./errors.ts";
import { packageVersion } from "./version.ts";

/** The command named on the command line (`regwatch help NAME` included), if any. */
function requestedCommand(argv: readonly string[]): CommandEntry | undefined {
  const args = argv.slice(2);
  const name = args[0] === "help" ? args[1] : args[0];
  return COMMANDS.find((c) => c.name === name);
}

async function main(): Promise<void> {
  loadDotEnv();
  const program = new Command()
    .name("regwatch")
    .description("Keeps a Postgres database in step with a business registry's watch service.")
    .version(packageVersion(), "-V, --version", "print the version of regwatch")
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride();

  const wanted = requestedCommand(process.argv);
  if (wanted) {
    (await wanted.load())(program);
  } else {
    // Overview or an unknown command: names and summaries only, no command module loaded.
    for (const entry of COMMANDS) program.command(entry.name).description(entry.summary);
  }

  try {
    await program.parseAsync(process.argv);
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    const benign = ["commander.helpDisplayed", "commander.help", "commander.version"].includes(error.code);
    process.exitCode = benign ? EXIT.ok : EXIT.usage;
  }
}

await main();
