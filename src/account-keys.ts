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
import { CONTROL_CHARS } from "./config-schema.ts";

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

/**
 * Whether a key variable's value is a Postgres address (`postgres://`, `postgresql://`, with a
 * driver such as `postgresql+psycopg://`), never a key.
 */
export function looksLikeDatabaseAddress(value: string): boolean {
  return /^\s*postgres(ql)?(\+[a-z0-9_]+)?:\/\//i.test(value);
}

/** A URL with a user (and mostly a password) before its host: `scheme+driver://user:pass@host`. */
export function looksLikeCredentialUrl(value: string): boolean {
  return /^\s*[a-z][a-z0-9+.-]*:\/\/[^/?#\s]*@/i.test(value);
}

/** libpq's connection keywords, as a `key=value` string (`host=db password=secret`) holds them. */
const LIBPQ_KEYWORDS = [
  "host",
  "hostaddr",
  "port",
  "dbname",
  "user",
  "password",
  "passfile",
  "service",
  "options",
  "sslmode",
  "sslcert",
  "sslkey",
  "sslrootcert",
  "sslpassword",
  "connect_timeout",
  "application_name",
  "target_session_attrs",
];
const LIBPQ_PAIR = new RegExp(`(^|\\s)(${LIBPQ_KEYWORDS.join("|")})\\s*=`, "i");

/** A libpq keyword string (`host=db password=secret dbname=x`): a connection's address, never a key. */
export function looksLikeConnectionString(value: string): boolean {
  return LIBPQ_PAIR.test(value);
}

/**
 * The key as the registry receives it: a header value loses its leading and trailing spaces and
 * tabs (and line breaks) on the way (Fetch's header value normalisation), so ` k` and `k` are one
 * key on the wire.
 */
export function keyAsSent(value: string): string {
  return value.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, "");
}

/**
 * Why a set, non-blank key variable's `value` cannot be sent as `X-Api-Key`, or undefined when it
 * can: control characters (C0, DEL, C1: a newline splits the header), blanks at either end (the
 * key sent would not be the key written), or something that reads as a database's credentials
 * (a postgres address, any URL with a user, a libpq keyword string). The reason never quotes
 * the value.
 */
export function keyValueProblem(value: string): string | undefined {
  if (CONTROL_CHARS.test(value))
    return "must not contain control characters (newline, carriage return, tab, ...)";
  if (looksLikeDatabaseAddress(value)) return "holds a database address (postgres://...), not an API key";
  if (looksLikeCredentialUrl(value))
    return "holds a URL with a user name or password (scheme://user:password@host), not an API key";
  if (looksLikeConnectionString(value))
    return "holds a database connection string (host=... password=...), not an API key";
  if (value !== value.trim())
    return "must not begin or end with a blank (a space, a no-break space, ...): header values are sent trimmed, so the registry would receive another key than the one written";
  return undefined;
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

/** The key a variable's value becomes on the wire; undefined when unset or blank. */
function sentValue(value: string | undefined): string | undefined {
  const sent = value === undefined ? undefined : keyAsSent(value);
  return sent === undefined || sent.trim() === "" ? undefined : sent;
}

/**
 * One problem per pair of accounts whose keys are one key: both name the same variable, or their
 * variables hold the same key as sent (` k` and `k` are one key on the wire; unset and empty ones
 * are not compared). An account may use one key for watch and search; two accounts may not share
 * any key.
 */
export function sharedKeyProblems(accounts: readonly KeyedAccount[], env: NodeJS.ProcessEnv): string[] {
  const problems: string[] = [];
  const reported = new Set<string>();
  const uses = accounts.flatMap(usesOf);
  const values = uses.map((use) => sentValue(env[use.variable]));
  for (const [i, j] of candidatePairs(uses, values)) {
    const a = uses[i]!;
    const b = uses[j]!;
    if (a.account === b.account) continue;
    const pair = `${a.account}\u0000${b.account}`;
    if (reported.has(pair)) continue;
    const sameVariable = a.variable === b.variable;
    const sameValue = !sameVariable && values[i] !== undefined && values[j] === values[i];
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
  return problems;
}

/**
 * The pairs of uses (i < j, in the order a comparison of every pair would meet them) that name one
 * variable or hold one key: found through two indexes, so a file of a thousand accounts costs a
 * few thousand steps, not the half million of comparing every pair.
 */
function candidatePairs(
  uses: readonly KeyUse[],
  values: readonly (string | undefined)[],
): [number, number][] {
  const groups = new Map<string, number[]>();
  const join = (key: string, index: number) => {
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [index]);
    else group.push(index);
  };
  uses.forEach((use, index) => {
    join(`variable\u0000${use.variable}`, index);
    const value = values[index];
    if (value !== undefined) join(`value\u0000${value}`, index);
  });
  const pairs = new Map<string, [number, number]>();
  for (const group of groups.values())
    for (let x = 0; x < group.length; x++)
      for (let y = x + 1; y < group.length; y++) pairs.set(`${group[x]} ${group[y]}`, [group[x]!, group[y]!]);
  return [...pairs.values()].sort((p, q) => p[0] - q[0] || p[1] - q[1]);
}

/**
 * A short fingerprint of a key: tells whether a variable still holds the key the registry refused
 * without keeping the key (the first 16 hex digits of its SHA-256).
 */
export function keyFingerprint(key: string): string {
  // node:crypto when a fingerprint is made: loading it is about 5 ms of a status's start.
  const { createHash } = process.getBuiltinModule("node:crypto");
  return createHash("sha256").update(key, "utf8").digest("hex").slice(0, 16);
}
