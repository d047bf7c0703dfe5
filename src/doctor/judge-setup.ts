/**
 * The setup as this machine holds it, before any connection: the configuration (every bad
 * variable named, as every command does; a misspelt one found) and the schedule with both time
 * zones. Pure: the next runs are computed by the caller with the daemon's own scheduler.
 */
import type { Config } from "../config.ts";
import { unknownVariables, unknownVariableText } from "../config-unknown.ts";
import { DATA_COMPLETE_HOUR, localDateTime } from "../dates.ts";
import { type CheckResult, CONFIGURATION, fail, ok, warn } from "./report.ts";

export const SCHEDULE = "schedule";

/** One failed line per problem of a configuration that does not load (exit 78). */
export function judgeConfigProblems(problems: readonly string[]): CheckResult[] {
  return problems.map((problem) =>
    fail(CONFIGURATION, problem, "correct the variable in the environment or in .env, then run doctor again"),
  );
}

/**
 * A configuration that loaded: what the daily run still needs (the watch address and key: a
 * configuration error, exit 78), variables that regwatch does not know (a typo is otherwise
 * silently ignored), and a key that would cross the network unencrypted.
 */
export function judgeConfig(
  config: Config,
  env: NodeJS.ProcessEnv,
  dotenv: string | undefined,
): CheckResult[] {
  const results: CheckResult[] = [];
  // An account of an accounts file has its address in the file and its key in the variable it
  // names: the account's own checks (account-checks.ts) say what is missing there.
  const missing = config.account
    ? []
    : [...(config.watchUrl ? [] : ["REGWATCH_WATCH_URL"]), ...(config.apiKey ? [] : ["REGWATCH_API_KEY"])];
  for (const name of missing) {
    results.push(
      fail(
        CONFIGURATION,
        `${name}: not set; sync, reconcile and the daemon need it`,
        `set ${name} (see the README, "Connecting to the real registry")`,
      ),
    );
  }
  for (const unknown of unknownVariables(env)) {
    results.push(
      warn(
        CONFIGURATION,
        unknownVariableText(unknown),
        unknown.near ? `rename it to ${unknown.near}` : "remove it, or check the README's list of variables",
      ),
    );
  }
  if (config.watchUrl && config.apiKey && insecure(config.watchUrl)) {
    results.push(
      warn(
        CONFIGURATION,
        `${config.account ? `account "${config.account}"'s watch_url` : "REGWATCH_WATCH_URL"} is http:// on another machine: the API key would cross the network unencrypted`,
        "use the https:// address",
      ),
    );
  }
  if (results.length === 0) {
    const set = [...config.explicit].sort();
    const source = dotenv ? `, with ${dotenv} read (the environment wins)` : "";
    results.push(
      ok(
        CONFIGURATION,
        `valid: ${set.length} variable(s) set (${set.join(", ") || "none"}), the rest at their defaults${source}`,
      ),
    );
  }
  return results;
}

function insecure(address: string): boolean {
  const url = new URL(address);
  return url.protocol === "http:" && !["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
}

export interface ScheduleFacts {
  schedule: string;
  /** REGWATCH_TZ: the zone the schedule is read in. */
  tz: string;
  /** REGWATCH_REGISTRY_TZ: the zone of the registry's 06:00 load and 07:00 rule. */
  registryTz: string;
  /** The next runs, as the daemon's scheduler computes them. */
  nextRuns: readonly Date[];
}

/**
 * The schedule and both zones, with the next runs in local time. A run before 07:00 in the
 * registry's zone finds yesterday incomplete (the load starts at 06:00): it covers one day less,
 * and yesterday waits a whole day for the next run.
 */
export function judgeSchedule(facts: ScheduleFacts): CheckResult {
  const { schedule, tz, registryTz, nextRuns } = facts;
  if (nextRuns.length === 0) {
    return fail(
      SCHEDULE,
      `REGWATCH_SCHEDULE "${schedule}" never fires`,
      "set a daily schedule, e.g. 15 7 * * *",
    );
  }
  const at = (instant: Date, zone: string) => {
    const local = localDateTime(instant, zone);
    return `${local.date} ${pad(local.hour)}:${pad(local.minute)}`;
  };
  const runs = nextRuns.map((r) => at(r, tz)).join(", ");
  const zones =
    tz === registryTz
      ? `${tz}, also the registry's zone`
      : `${tz}; in the registry's zone ${registryTz}: ${nextRuns.map((r) => at(r, registryTz).slice(11)).join(", ")}`;
  const message = `"${schedule}" in ${zones}; next runs ${runs} (${tz})`;
  const early = nextRuns.filter((r) => localDateTime(r, registryTz).hour < DATA_COMPLETE_HOUR);
  if (early.length > 0) {
    return warn(
      SCHEDULE,
      `${message}: ${early.length === nextRuns.length ? "every run is" : "some runs are"} before ${DATA_COMPLETE_HOUR}:00 in ${registryTz}, when yesterday is not complete yet, so those runs cover up to the day before`,
      `schedule the run after ${DATA_COMPLETE_HOUR}:00 ${registryTz} (e.g. REGWATCH_SCHEDULE="15 7 * * *" with REGWATCH_TZ=${registryTz}), or check REGWATCH_TZ and REGWATCH_REGISTRY_TZ`,
    );
  }
  return ok(SCHEDULE, message);
}

function pad(n: number): string {
  return String(n).padStart(2, "0");
}
