/**
 * The `regwatch` command line. Each command lives in its own file under commands/; only the one
 * being run is imported (with its libraries): see commands/run-cli.ts.
 */
import { runCli } from "./commands/run-cli.ts";
import { COMMANDS } from "./commands/table.ts";

await runCli(process.argv, COMMANDS);
