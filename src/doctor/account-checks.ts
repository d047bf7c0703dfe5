/**
 * `regwatch doctor --account NAME`: what the doctor checks of one account of a fleet beyond the
 * plain checks run on the account's configuration: the variables holding its keys (named, never
 * their values), the job queue installed, the account's jobs that failed for good, and whether
 * any worker is alive to run its jobs.
 */
import { randomBytes } from "node:crypto";
import { keyValueProblem } from "../account-keys.ts";
import { type Account, accountConfig } from "../accounts.ts";
import type { Config } from "../config.ts";
import { DEFAULT_SCHEMA, openDatabase } from "../db/connect.ts";
import { ConfigError, coerceError } from "../errors.ts";
import { type QueuedJob, queuedJobs } from "../fleet/queue-counts.ts";
import { queueSchemaInstalled } from "../fleet/sql/status.ts";
import { listWorkers } from "../fleet/sql/workers.ts";
import { redactSecrets } from "../secrets.ts";
import { type CheckResult, CONFIGURATION, fail, ok, warn } from "./report.ts";

export const ACCOUNT_KEY = "account key";
export const QUEUE = "job queue";
export const FAILED_JOBS = "failed jobs";
export const WORKERS = "workers";

type KeyField = "api_key_env" | "search_api_key_env";

function keyVariables(account: Account): Array<{ field: KeyField; variable: string }> {
  return [
    { field: "api_key_env" as const, variable: account.apiKeyEnv },
    ...(account.searchApiKeyEnv
      ? [{ field: "search_api_key_env" as const, variable: account.searchApiKeyEnv }]
      : []),
  ];
}

function usable(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== "" && keyValueProblem(value) === undefined;
}

/**
 * One line per variable the account names for a key: set, or a configuration failure (exit 78)
 * naming the variable and the account. Values are never read into a message.
 */
export function judgeAccountKeys(account: Account, env: NodeJS.ProcessEnv): CheckResult[] {
  return keyVariables(account).map(({ field, variable }) => {
    const value = env[variable];
    const whose = `account "${account.name}" names it in ${field}`;
    if (value === undefined || value.trim() === "")
      return fail(
        CONFIGURATION,
        `${variable}: not set or empty; ${whose} for its key`,
        `set ${variable} in the environment or in .env (keys never go in the accounts file)`,
      );
    const why = keyValueProblem(value);
    if (why !== undefined)
      return fail(CONFIGURATION, `${variable}: ${why}; ${whose}`, `set ${variable} to the key alone`);
    return ok(ACCOUNT_KEY, `${variable} is set (${whose})`);
  });
}

/**
 * The account's configuration for the plain checks even when a key variable is unusable: the
 * judged lines say so, and the checks that need the key report it missing instead of being skipped.
 */
export function accountConfigForDoctor(base: Config, account: Account, env: NodeJS.ProcessEnv): Config {
  try {
    return accountConfig(base, account, env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
  }
  // A random stand-in lets the configuration be built; it is dropped again before any use.
  const standIn = `doctor-stand-in-${randomBytes(12).toString("hex")}`;
  const patched = { ...env };
  for (const { variable } of keyVariables(account)) if (!usable(env[variable])) patched[variable] = standIn;
  const config = accountConfig(base, account, patched);
  return {
    ...config,
    apiKey: config.apiKey === standIn ? undefined : config.apiKey,
    searchApiKey: config.searchApiKey === standIn ? undefined : config.searchApiKey,
  };
}

export function judgeQueue(installed: boolean): CheckResult {
  return installed
    ? ok(QUEUE, "the job queue's schema (graphile_worker) is installed")
    : fail(
        QUEUE,
        "the job queue's schema (graphile_worker) is not installed: no job can be asked for or run",
        "run `regwatch migrate` (a worker or the daemon also installs it when it starts)",
      );
}

/** The account's jobs whose attempts ran out: they stay failed, with their last error, until acted on. */
export function judgeFailedJobs(account: string, jobs: readonly QueuedJob[]): CheckResult {
  const failed = jobs.filter((j) => j.account === account && !j.lockedBy && j.attempts >= j.maxAttempts);
  if (failed.length === 0) return ok(FAILED_JOBS, `no job of account "${account}" has failed for good`);
  const shown = failed.slice(0, 3).map(
    (j) =>
      `${j.key ?? j.task} after ${j.attempts} attempts: ${redactSecrets(j.lastError ?? "no error kept")
        .split("\n")[0]!
        .slice(0, 120)}`,
  );
  return warn(
    FAILED_JOBS,
    `${failed.length} job(s) of account "${account}" failed for good: ${shown.join("; ")}${failed.length > 3 ? "; ..." : ""}`,
    "fix the cause (the key, the registry), then ask for the work again with `regwatch enqueue`",
  );
}

export function judgeWorkers(alive: number, seen: number): CheckResult {
  if (alive > 0) return ok(WORKERS, `${alive} worker(s) alive`);
  return warn(
    WORKERS,
    seen === 0
      ? "no worker has run yet: queued jobs wait"
      : `none of the ${seen} worker(s) seen today is alive: queued jobs wait`,
    "start `regwatch worker` or `regwatch daemon` (which runs jobs unless --no-worker)",
  );
}

/** The queue's lines, read from the fleet's home schema. */
export async function checkQueue(base: Config, account: string): Promise<CheckResult[]> {
  let db: Awaited<ReturnType<typeof openDatabase>> | undefined;
  try {
    db = await openDatabase({ ...base, schema: DEFAULT_SCHEMA }, { max: 1 });
    if (!(await queueSchemaInstalled(db.sql))) return [judgeQueue(false)];
    const [jobs, workers] = await Promise.all([
      queuedJobs(db.sql),
      listWorkers(db.sql, base.jobLeaseS).catch(() => []),
    ]);
    return [
      judgeQueue(true),
      judgeFailedJobs(account, jobs),
      judgeWorkers(workers.filter((w) => w.alive).length, workers.length),
    ];
  } catch (error) {
    const why = `not checked: ${redactSecrets(coerceError(error).message)}`;
    return [warn(QUEUE, why, "see the database line")];
  } finally {
    await db?.close().catch(() => {});
  }
}

/**
 * The report of an account's checks in the account's own terms: a next step that says "set
 * REGWATCH_API_KEY" means, for an account, the variable its api_key_env names, and "check
 * REGWATCH_WATCH_URL" its entry's watch_url in the accounts file.
 */
export function inAccountTerms(results: readonly CheckResult[], account: Account): CheckResult[] {
  const entry = (field: string) => `${field} of account "${account.name}" in REGWATCH_ACCOUNTS_FILE`;
  const names: Array<[RegExp, string]> = [
    [/\bREGWATCH_SEARCH_API_KEY\b/g, account.searchApiKeyEnv ?? account.apiKeyEnv],
    [/\bREGWATCH_API_KEY\b/g, account.apiKeyEnv],
    [/\bREGWATCH_WATCH_URL\b/g, entry("watch_url")],
    [/\bREGWATCH_SEARCH_URL\b/g, entry("search_url")],
    [/\bREGWATCH_FILE_ORIGINS\b/g, entry("file_origins")],
  ];
  const say = (text: string) => names.reduce((out, [pattern, name]) => out.replace(pattern, name), text);
  return results.map((r) => ({
    ...r,
    message: say(r.message),
    ...(r.next === undefined ? {} : { next: say(r.next) }),
  }));
}
