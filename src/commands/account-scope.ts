/**
 * Which account's configuration a command runs with: `--account NAME` (account-option.ts) or the
 * only account of REGWATCH_ACCOUNTS_FILE, resolved once by `runAction`.
 */
import type { Config } from "../config.ts";
import type { AccountFlag } from "./account-option.ts";

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
