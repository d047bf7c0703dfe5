/**
 * `regwatch status` alone: the same command line as src/cli.ts, over that one command. The build
 * bundles it into one file (dist/cli-status.js) that bin/regwatch.js runs for `regwatch status`:
 * the cheapest command that reads the database, which an operator or a monitor runs often, then
 * starts without resolving, reading and linking the thirty chunks its code is spread over in the
 * build of every command.
 */
import { runCli } from "./commands/run-cli.ts";
import { registerStatus, STATUS_SUMMARY } from "./commands/status.ts";

await runCli(process.argv, [{ name: "status", summary: STATUS_SUMMARY, load: async () => registerStatus }]);
