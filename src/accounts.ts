/**
 * The accounts of a fleet as the program uses them: the list (REGWATCH_ACCOUNTS_FILE, checked in
 * accounts-file.ts), the configuration of one account (the global one with the account's registry
 * settings and schema put in), and the choice of the account a command works on.
 *
 * Without an accounts file nothing changes: one account, schema `regwatch`, the REGWATCH_WATCH_URL
 * family of variables. With one, those variables are not used for any account; everything else
 * (database, timeouts, alerts, console) stays shared by all accounts.
 */
import { keyValueProblem, sharedKeyProblems } from "./account-keys.ts";
import { type Account, readAccountsFile } from "./accounts-file.ts";
import type { Config } from "./config.ts";
import { ConfigError, UsageError } from "./errors.ts";
import { registerSecrets } from "./secrets.ts";

export { type Account, CONTRACT_RATE_LIMIT, parseAccounts } from "./accounts-file.ts";

/**
 * The accounts of REGWATCH_ACCOUNTS_FILE; undefined when it is not set. Throws ConfigError, also
 * when the key variables' values in `env` break the file's rules: two accounts holding one key (as
 * sent), or a key variable holding what cannot be sent as a key (a database's credentials, control
 * characters, blanks at either end), named by variable, never by value.
 */
export function loadAccounts(
  config: Pick<Config, "accountsFile">,
  env: NodeJS.ProcessEnv = process.env,
): Account[] | undefined {
  if (config.accountsFile === undefined) return undefined;
  const accounts = readAccountsFile(config.accountsFile);
  const where = `REGWATCH_ACCOUNTS_FILE (${config.accountsFile})`;
  const problems = sharedKeyProblems(accounts, env).map((p) => `${where}: ${p}`);
  for (const account of accounts) {
    for (const [field, variable] of keyFields(account)) {
      const value = env[variable];
      const why = value === undefined || value.trim() === "" ? undefined : keyValueProblem(value);
      if (why !== undefined) problems.push(keyValueMessage(variable, why, account, field));
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return accounts;
}

function keyFields(account: Account): Array<[string, string]> {
  const fields: Array<[string, string]> = [["api_key_env", account.apiKeyEnv]];
  if (account.searchApiKeyEnv !== undefined) fields.push(["search_api_key_env", account.searchApiKeyEnv]);
  return fields;
}

function keyValueMessage(variable: string, why: string, account: Account, field: string): string {
  return `${variable}: ${why}; account "${account.name}" names it in ${field}, and its value would be sent to the registry as X-Api-Key`;
}

/**
 * The keys every account's variables hold (unset ones left out): a process serving the whole fleet
 * (a worker, the fleet daemon) scrubs them all from its log from its first line.
 */
export function accountKeys(accounts: readonly Account[], env: NodeJS.ProcessEnv = process.env): string[] {
  return accounts
    .flatMap((a) => [a.apiKeyEnv, a.searchApiKeyEnv])
    .map((name) => (name ? env[name] : undefined))
    .filter((key): key is string => Boolean(key));
}

/**
 * The configuration of one account: the global one with the account's addresses, keys (read from
 * the variables the account names), file origins, pacing, schedule, zone and schema. The keys are
 * registered as secrets, so no sink prints them. A named variable unset, empty or holding control
 * characters is a ConfigError naming the variable, never its value.
 */
export function accountConfig(base: Config, account: Account, env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const apiKey = keyFrom(env, account.apiKeyEnv, account, "api_key_env", problems);
  const searchApiKey =
    account.searchApiKeyEnv === undefined
      ? apiKey
      : keyFrom(env, account.searchApiKeyEnv, account, "search_api_key_env", problems);
  if (problems.length > 0) throw new ConfigError(problems);
  registerSecrets([apiKey, searchApiKey]);
  return {
    ...accountSettings(base, account),
    apiKey,
    searchApiKey,
    keyVariables: { apiKey: account.apiKeyEnv, searchApiKey: account.searchApiKeyEnv ?? account.apiKeyEnv },
  };
}

/**
 * The account's configuration without its keys (both undefined): for readers that never call the
 * registry (the console, a fleet overview) and must work where the key variables are not set.
 */
export function accountSettings(base: Config, account: Account): Config {
  return {
    ...base,
    account: account.name,
    schema: account.schema,
    watchUrl: account.watchUrl,
    searchUrl: account.searchUrl,
    apiKey: undefined,
    searchApiKey: undefined,
    fileOrigins: account.fileOrigins ?? [new URL(account.watchUrl).origin],
    rateLimit: account.rateLimit ?? base.rateLimit,
    schedule: account.schedule ?? base.schedule,
    tz: account.timezone ?? base.tz,
  };
}

function keyFrom(
  env: NodeJS.ProcessEnv,
  variable: string,
  account: Account,
  field: string,
  problems: string[],
): string | undefined {
  const value = env[variable];
  const whose = `account "${account.name}" (its ${field})`;
  if (value === undefined || value.trim() === "") {
    problems.push(`${variable}: must hold the API key of ${whose}; it is unset or empty`);
    return undefined;
  }
  // A key with a newline would split the header it is sent in, one with a blank at an end would
  // be sent trimmed: both are refused, not repaired.
  const why = keyValueProblem(value);
  if (why !== undefined) {
    problems.push(keyValueMessage(variable, why, account, field));
    return undefined;
  }
  return value;
}

/**
 * The configuration a command works with. No accounts file: `base` unchanged (`--account` is then
 * refused). With one: the named account, or the only one when the file lists one; several
 * accounts and no name is a usage error listing them. `withoutKeys` is for a command that calls no
 * registry (grant-reader): the account's key variables are then not read.
 */
export function chooseAccount(
  base: Config,
  name: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  options: { withoutKeys?: boolean } = {},
): Config {
  const accounts = loadAccounts(base);
  if (accounts === undefined) {
    if (name !== undefined)
      throw new UsageError("--account: no accounts file: REGWATCH_ACCOUNTS_FILE is not set");
    return base;
  }
  const account = pickAccount(accounts, name);
  return options.withoutKeys ? accountSettings(base, account) : commandConfig(base, account, env);
}

/**
 * An account's configuration for a command: its keys when their variables are set, else none, so
 * a command that only reads the account's tables (changes, status, alerts) runs where the keys are
 * not at hand; one that calls the registry then names the variable to set (requireWatch). A key
 * that is set but unusable (control characters, blanks at an end, credentials) is refused at once.
 */
function commandConfig(base: Config, account: Account, env: NodeJS.ProcessEnv): Config {
  const set = (variable: string | undefined) => variable !== undefined && (env[variable] ?? "").trim() !== "";
  const searchVariable = account.searchApiKeyEnv ?? account.apiKeyEnv;
  const config =
    set(account.apiKeyEnv) && set(searchVariable)
      ? accountConfig(base, account, env)
      : {
          ...accountSettings(base, account),
          apiKey: set(account.apiKeyEnv)
            ? usableKey(env, account.apiKeyEnv, account, "api_key_env")
            : undefined,
          searchApiKey: set(searchVariable)
            ? usableKey(env, searchVariable, account, "search_api_key_env")
            : undefined,
        };
  return { ...config, keyVariables: { apiKey: account.apiKeyEnv, searchApiKey: searchVariable } };
}

/** The key in `variable`, known to be set: refused when it cannot be sent as a key. */
function usableKey(env: NodeJS.ProcessEnv, variable: string, account: Account, field: string): string {
  const problems: string[] = [];
  const key = keyFrom(env, variable, account, field, problems);
  if (key === undefined) throw new ConfigError(problems);
  registerSecrets([key]);
  return key;
}

/** The account `name` names, or the only one; a usage error otherwise. */
export function pickAccount(
  accounts: readonly Account[],
  name: string | undefined,
  /** What the command takes instead of one account, when it can work on all (`doctor --all`). */
  orAll?: string,
): Account {
  const names = accounts.map((a) => a.name);
  if (name === undefined) {
    if (accounts.length === 1) return accounts[0]!;
    throw new UsageError(
      `--account NAME is required: ${accounts.length} accounts (${names.join(", ")})${orAll ? `; ${orAll}` : ""}`,
    );
  }
  const found = accounts.find((a) => a.name === name);
  if (!found) {
    throw new UsageError(
      `--account: no account "${name}" in the accounts file (accounts: ${names.join(", ")})`,
    );
  }
  return found;
}
