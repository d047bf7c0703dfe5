/**
 * `--account NAME` for the commands that read or write one account's data. The option only
 * carries the name; `runAction` resolves it once (src/accounts.ts `chooseAccount`), so each
 * command's body receives the chosen account's configuration and opens that account's schema
 * (account-scope.ts, apart from commander's Option, which `regwatch status` loads only for --account).
 */
import { Option } from "commander";

/** The options of a command that takes `--account`: what `runAction` is handed. */
export interface AccountFlag {
  account?: string;
}

/** `--account NAME`, for `command.addOption(accountOption())`. */
export function accountOption(): Option {
  return new Option(
    "--account <name>",
    "the account of REGWATCH_ACCOUNTS_FILE to work on (required when the file lists more than one)",
  );
}
