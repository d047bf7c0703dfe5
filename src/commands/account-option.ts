/**
 * `--account NAME` for the commands that read or write one account's data. The option only
 * carries the name; `runAction` resolves it once (src/accounts.ts `chooseAccount`), so each
 * command's body receives the chosen account's configuration and opens that account's schema.
 */
import { Option } from "commander";
import type { Config } from "../config.ts";

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

/** What `runAction` is told about a command of one account. */
export interface AccountScope extends AccountFlag {
  /** The command calls no registry: the account's key variables are not read. */
  withoutKeys?: boolean;
}

/**
 * The configuration a command runs with; `scope` undefined means the command is not one
 * account's (migrate, users, web, ...) and keeps the global configuration.
 */
export async function configForCommand(base: Config, scope: AccountScope | undefined): Promise<Config> {
  // Without an accounts file and without --account there is nothing to choose: the accounts
  // code (and the YAML parser it reads the file with) is not loaded.
  if (scope === undefined || (base.accountsFile === undefined && scope.account === undefined)) return base;
  const { chooseAccount } = await import("../accounts.ts");
  return chooseAccount(base, scope.account, process.env, { withoutKeys: scope.withoutKeys });
}
