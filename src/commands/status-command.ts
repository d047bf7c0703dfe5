/**
 * `regwatch status` on commander's command line (src/cli.ts, and src/cli-status.ts for a command
 * line it does not parse itself: --help, --account, --fleet, a mistake).
 */
import type { Command } from "commander";
import { CALENDAR_WEEKS } from "../status/status-report.ts";
import { accountOption } from "./account-option.ts";
import { runStatus, type StatusOptions } from "./status.ts";

/** The command's description (the same as its summary in commands/table.ts). */
export const STATUS_SUMMARY =
  "coverage per list, last runs, change files, item outcomes and API usage (reads the database only)";

export function registerStatus(program: Command): void {
  program
    .command("status")
    .addOption(accountOption())
    .description(STATUS_SUMMARY)
    .option("--json", "print the status as JSON")
    .option(
      "--fleet",
      "one line per account of REGWATCH_ACCOUNTS_FILE and one per queue worker (needs the accounts file)",
    )
    .addHelpText(
      "after",
      [
        "",
        `The calendar shows the last ${CALENDAR_WEEKS} weeks, Monday first, one character a day:`,
        "  # covered   . missing (due, not covered)   - not yet due   (blank) before the list existed",
      ].join("\n"),
    )
    .action((opts: StatusOptions) => runStatus(opts));
}
