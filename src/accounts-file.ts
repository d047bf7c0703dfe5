/**
 * Reading and checking REGWATCH_ACCOUNTS_FILE: the registry accounts a fleet serves, each with its
 * own addresses, key variables, pacing and schedule. Every problem of every entry is reported in
 * one ConfigError (exit 78), each naming the entry by its position and name. The file holds the
 * NAMES of the variables that carry keys, never a key: a key in the file is refused.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import * as z from "zod";
import { refusedKeyVariable, sharedKeyProblems } from "./account-keys.ts";
import { ACCOUNT_NAME, accountSchema, RESERVED_ACCOUNT_NAMES } from "./account-name.ts";
import { baseUrl, cronExpression, DEFAULTS, originOnly, timeZone } from "./config-schema.ts";
import { ConfigError } from "./errors.ts";

/** One account of the accounts file, checked, with its schema. */
export interface Account {
  /** `[a-z][a-z0-9_]{0,29}` */
  name: string;
  /** `regwatch_<name>` */
  schema: string;
  /** Trailing slash removed, like REGWATCH_WATCH_URL. */
  watchUrl: string;
  searchUrl?: string;
  /** Name of the environment variable that holds the watch interface's key. */
  apiKeyEnv: string;
  /** Name of the variable holding the search key; the watch key is used when absent. */
  searchApiKeyEnv?: string;
  /** Default: the watch URL's origin. */
  fileOrigins?: string[];
  /** Requests per second, at most the registry's 30; default REGWATCH_RATE_LIMIT. */
  rateLimit?: number;
  /** Cron expression; default REGWATCH_SCHEDULE. */
  schedule?: string;
  /** IANA zone; default REGWATCH_TZ. */
  timezone?: string;
}

/** The registry's contract allows this many requests per second per key. */
export const CONTRACT_RATE_LIMIT = DEFAULTS.rateLimit;

const ENV_VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const envVarName = z.string().regex(ENV_VAR_NAME, "must be the name of an environment variable");

const entrySchema = z.strictObject({
  name: z
    .string()
    .regex(ACCOUNT_NAME, "must be a lower-case letter, then lower-case letters, digits or _ (30 at most)")
    .refine(
      (name) => !RESERVED_ACCOUNT_NAMES.includes(name),
      "is reserved: its schema would be one of the fleet's own (regwatch_fleet, regwatch_fleet_parts)",
    ),
  watch_url: baseUrl("v2"),
  search_url: baseUrl("v1").optional(),
  api_key_env: envVarName,
  search_api_key_env: envVarName.optional(),
  file_origins: z.array(originOnly()).min(1, "must list at least one origin").optional(),
  rate_limit: z
    .number("must be a number")
    .int("must be a whole number")
    .positive("must be greater than 0")
    .max(CONTRACT_RATE_LIMIT, `must be at most ${CONTRACT_RATE_LIMIT} (the registry's limit per key)`)
    .optional(),
  schedule: cronExpression().optional(),
  timezone: timeZone().optional(),
});

type Entry = z.output<typeof entrySchema>;

const KEY_IN_FILE = new Set(["api_key", "search_api_key", "key", "apikey", "x_api_key"]);

/** Accounts already read, by the file's absolute path: the file is read once per process. */
const loaded = new Map<string, Account[]>();

/** The accounts of the file at `file` (relative to the working directory); throws ConfigError. */
export function readAccountsFile(file: string): Account[] {
  const absolute = path.resolve(file);
  const known = loaded.get(absolute);
  if (known) return known;
  const accounts = parseAccounts(readText(file), file);
  loaded.set(absolute, accounts);
  return accounts;
}

/** Checks the text of an accounts file; `file` names it in messages and decides JSON or YAML. */
export function parseAccounts(text: string, file: string): Account[] {
  const where = `REGWATCH_ACCOUNTS_FILE (${file})`;
  const list = entriesOf(decode(text, file, where), where);
  const problems: string[] = [];
  const accounts: Account[] = [];
  const seen = new Map<string, number>();
  list.forEach((raw, index) => {
    const label = entryLabel(raw, index);
    const entryProblems = checkEntry(raw);
    const name = isRecord(raw) && typeof raw.name === "string" ? raw.name : undefined;
    const first = name === undefined ? undefined : seen.get(name);
    if (first !== undefined) entryProblems.push(`name: "${name}" is already used by entry ${first + 1}`);
    else if (name !== undefined) seen.set(name, index);
    if (entryProblems.length > 0) problems.push(...entryProblems.map((p) => `${where}: ${label}: ${p}`));
    else accounts.push(toAccount(entrySchema.parse(raw)));
  });
  // Without values: two accounts naming one variable share its key whatever it holds.
  problems.push(...sharedKeyProblems(accounts, {}).map((p) => `${where}: ${p}`));
  if (problems.length > 0) throw new ConfigError(problems);
  return accounts;
}

function readText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory" : (code ?? "unreadable");
    throw new ConfigError([`REGWATCH_ACCOUNTS_FILE: cannot read ${file} (${why})`]);
  }
}

/** JSON for .json, YAML for .yaml/.yml; any other name is tried as JSON, then as YAML. */
function decode(text: string, file: string, where: string): unknown {
  const ext = path.extname(file).toLowerCase();
  const asJson = (): unknown => JSON.parse(text);
  const asYaml = (): unknown => parseYaml(text);
  try {
    if (ext === ".json") return asJson();
    if (ext === ".yaml" || ext === ".yml") return asYaml();
    try {
      return asJson();
    } catch {
      return asYaml();
    }
  } catch (error) {
    const kind = ext === ".json" ? "JSON" : ext === ".yaml" || ext === ".yml" ? "YAML" : "JSON or YAML";
    const detail = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new ConfigError([`${where}: is not valid ${kind}: ${detail}`]);
  }
}

/** The entries: the document is a list, or an object whose only field is `accounts`, a list. */
function entriesOf(document: unknown, where: string): unknown[] {
  let list = document;
  if (isRecord(document)) {
    const other = Object.keys(document).filter((k) => k !== "accounts");
    if (other.length > 0)
      throw new ConfigError([
        `${where}: unknown top-level field(s) ${other.join(", ")}; only "accounts" is allowed`,
      ]);
    list = document.accounts;
  }
  if (!Array.isArray(list))
    throw new ConfigError([`${where}: must be a list of accounts, or an object with an "accounts" list`]);
  if (list.length === 0) throw new ConfigError([`${where}: lists no account`]);
  return list;
}

function entryLabel(raw: unknown, index: number): string {
  const name = isRecord(raw) && typeof raw.name === "string" ? ` ("${raw.name}")` : "";
  return `entry ${index + 1}${name}`;
}

/** Every problem of one entry, each naming its field. */
function checkEntry(raw: unknown): string[] {
  if (!isRecord(raw)) return ["must be an object with name, watch_url, api_key_env, ..."];
  const problems: string[] = [];
  for (const key of Object.keys(raw)) {
    if (KEY_IN_FILE.has(key.toLowerCase())) {
      problems.push(
        `${key}: keys never go in the file; name an environment variable in ${key.toLowerCase().startsWith("search") ? "search_api_key_env" : "api_key_env"}`,
      );
    }
  }
  const withoutKeys = Object.fromEntries(
    Object.entries(raw).filter(([k]) => !KEY_IN_FILE.has(k.toLowerCase())),
  );
  const result = entrySchema.safeParse(withoutKeys);
  if (!result.success) {
    for (const issue of result.error.issues) problems.push(...describe(issue, raw));
  }
  for (const field of ["api_key_env", "search_api_key_env"]) {
    const variable = raw[field];
    const why = typeof variable === "string" ? refusedKeyVariable(variable) : undefined;
    if (why) problems.push(`${field}: ${variable} ${why}; name the variable that holds this account's key`);
  }
  return problems;
}

function describe(issue: z.core.$ZodIssue, raw: Record<string, unknown>): string[] {
  if (issue.code === "unrecognized_keys") {
    return issue.keys.map(
      (key) => `${key}: unknown field (allowed: ${Object.keys(entrySchema.shape).join(", ")})`,
    );
  }
  const field = issue.path.map(String).join(".") || "entry";
  const top = issue.path[0];
  const value = typeof top === "string" ? raw[top] : undefined;
  if (value === undefined) return [`${field}: is required`];
  const message = issue.message.startsWith("Invalid input") ? "has the wrong type" : issue.message;
  const wording = /^(must|is|has) /.test(message) ? message : `is invalid (${message})`;
  return [
    `${field}: ${wording}, got ${JSON.stringify(issue.path.length > 1 ? pick(value, issue.path.slice(1)) : value)}`,
  ];
}

function pick(value: unknown, rest: PropertyKey[]): unknown {
  let v = value;
  for (const key of rest)
    v = isRecord(v) || Array.isArray(v) ? (v as Record<PropertyKey, unknown>)[key] : undefined;
  return v;
}

function toAccount(entry: Entry): Account {
  const account: Account = {
    name: entry.name,
    schema: accountSchema(entry.name),
    watchUrl: entry.watch_url.replace(/\/+$/, ""),
    apiKeyEnv: entry.api_key_env,
  };
  if (entry.search_url !== undefined) account.searchUrl = entry.search_url.replace(/\/+$/, "");
  if (entry.search_api_key_env !== undefined) account.searchApiKeyEnv = entry.search_api_key_env;
  if (entry.file_origins !== undefined) account.fileOrigins = entry.file_origins;
  if (entry.rate_limit !== undefined) account.rateLimit = entry.rate_limit;
  if (entry.schedule !== undefined) account.schedule = entry.schedule;
  if (entry.timezone !== undefined) account.timezone = entry.timezone;
  return account;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
