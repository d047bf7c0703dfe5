/**
 * What an accounts file may name as a key variable, and which keys accounts may hold. Pure: the
 * names come from the file, the values from the environment handed in.
 *
 * - A key variable is a key: a variable regwatch reads as one of its own settings, or one that
 *   holds a database's address or password, would be sent as `X-Api-Key` to whatever `watch_url`
 *   says. Such names are refused, and so is a value that reads as a postgres:// address.
 * - One key, one account: the registry paces and counts per key, while each account's jobs pace
 *   only themselves. Two accounts holding one key (by naming one variable, or two variables with
 *   the same value) would drive that key past its rate from two workers, so the file is refused.
 *   Messages name accounts and variables, never a value.
 */
import { createHash } from "node:crypto";

/** The REGWATCH_ variables that hold keys, and so may be named as an account's key variable. */
const REGWATCH_KEY_VARIABLES: ReadonlySet<string> = new Set(["REGWATCH_API_KEY", "REGWATCH_SEARCH_API_KEY"]);

/**
 * Why `name` cannot be a key variable, or undefined when it can: regwatch's own settings (every
 * `REGWATCH_` name but the two key variables) and what Postgres clients read (`DATABASE_URL` and
 * names ending in it, `DATABASE_…`, `POSTGRES_…`, libpq's `PG…`).
 */
export function refusedKeyVariable(name: string): string | undefined {
  const upper = name.toUpperCase();
  if (upper.startsWith("REGWATCH_") && !REGWATCH_KEY_VARIABLES.has(upper))
    return "is one of regwatch's own settings, not a key (the REGWATCH_ key variables are REGWATCH_API_KEY and REGWATCH_SEARCH_API_KEY)";
  if (upper.endsWith("DATABASE_URL") || upper.startsWith("DATABASE_"))
    return "holds a database's address or password, not a key";
  if (upper.startsWith("PG") || upper.startsWith("POSTGRES"))
    return "is a Postgres client setting (address, user or password), not a key";
  return undefined;
}

/** Whether a key variable's value is a Postgres address (`postgres://`, `postgresql://`), never a key. */
export function looksLikeDatabaseAddress(value: string): boolean {
  return /^\s*postgres(ql)?:\/\//i.test(value);
}

/** The key variables of one account, with the field of the file that names each. */
export interface KeyedAccount {
  name: string;
  apiKeyEnv: string;
  searchApiKeyEnv?: string;
}

interface KeyUse {
  account: string;
  field: "api_key_env" | "search_api_key_env";
  variable: string;
}

function usesOf(account: KeyedAccount): KeyUse[] {
  const uses: KeyUse[] = [{ account: account.name, field: "api_key_env", variable: account.apiKeyEnv }];
  if (account.searchApiKeyEnv !== undefined && account.searchApiKeyEnv !== account.apiKeyEnv)
    uses.push({ account: account.name, field: "search_api_key_env", variable: account.searchApiKeyEnv });
  return uses;
}

/**
 * One problem per pair of accounts whose keys are one key: both name the same variable, or their
 * variables hold the same value in `env` (unset and empty ones are not compared). An account may
 * use one key for watch and search; two accounts may not share any key.
 */
export function sharedKeyProblems(accounts: readonly KeyedAccount[], env: NodeJS.ProcessEnv): string[] {
  const problems: string[] = [];
  const reported = new Set<string>();
  const uses = accounts.flatMap(usesOf);
  for (let i = 0; i < uses.length; i++) {
    for (let j = i + 1; j < uses.length; j++) {
      const a = uses[i]!;
      const b = uses[j]!;
      if (a.account === b.account) continue;
      const pair = `${a.account}\u0000${b.account}`;
      if (reported.has(pair)) continue;
      const sameVariable = a.variable === b.variable;
      const value = env[a.variable];
      const sameValue =
        !sameVariable && value !== undefined && value.trim() !== "" && env[b.variable] === value;
      if (!sameVariable && !sameValue) continue;
      reported.add(pair);
      const how = sameVariable
        ? `both name ${a.variable} (${a.account}'s ${a.field}, ${b.account}'s ${b.field})`
        : `${a.variable} (${a.account}'s ${a.field}) and ${b.variable} (${b.account}'s ${b.field}) hold the same key`;
      problems.push(
        `accounts "${a.account}" and "${b.account}" share one API key: ${how}. The registry limits each key ` +
          "to its rate across every process, and the fleet paces each account on its own; give each account " +
          "a key of its own, or serve the key's lists from one account",
      );
    }
  }
  return problems;
}

/**
 * A short fingerprint of a key: tells whether a variable still holds the key the registry refused
 * without keeping the key (the first 16 hex digits of its SHA-256).
 */
export function keyFingerprint(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex").slice(0, 16);
}
