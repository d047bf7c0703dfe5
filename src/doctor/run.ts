/**
 * `regwatch doctor`'s checks in the order they print: the configuration, the database, the
 * registry (watch key, clock, description, file origins, search), the schedule, and the alert
 * targets. The database and the registry are asked at the same time; nothing is written to
 * either (a test write is rolled back), and the search interface gets no request at all.
 */

import type { Account } from "../accounts.ts";
import { type Clock, systemClock } from "../api/clock.ts";
import { readDescription } from "../api/description.ts";
import type { Config } from "../config.ts";
import { nodeCron } from "../cron.ts";
import { localDateTime } from "../dates.ts";
import { coerceError } from "../errors.ts";
import { registerSecrets } from "../secrets.ts";
import { checkQueue, inAccountTerms, judgeAccountKeys } from "./account-checks.ts";
import { type AlertRuleFacts, checkDatabase } from "./database-checks.ts";
import {
  judgeDelivery,
  judgeEmail,
  judgeFileOrigin,
  judgeWebhooks,
  type WebhookTarget,
} from "./judge-alerts.ts";
import { judgeDescription } from "./judge-description.ts";
import { judgeClock, judgeQuota, judgeSearch, judgeWatchRead, watchKeyVerdict } from "./judge-registry.ts";
import { judgeConfig, judgeSchedule } from "./judge-setup.ts";
import { checkKeyRefusal } from "./key-refusal-check.ts";
import { connectTo, verifySmtp } from "./probe-alerts.ts";
import { type DoctorHttp, doctorHttp, type Probe } from "./probe-http.ts";
import type { CheckResult } from "./report.ts";

export interface DoctorOptions {
  /** The environment the configuration came from (for variables regwatch does not know). */
  env?: NodeJS.ProcessEnv;
  /** The .env file that was read, if any (named in the report). */
  dotenv?: string;
  /** Our clock, against which the registry's Date header is compared. */
  clock?: Clock;
  /** `--account`: the account of the accounts file `config` is of; its keys and jobs are checked too. */
  account?: Account;
}

/** Longest wait for an alert target's connection. */
const CONNECT_TIMEOUT_MS = 10_000;

export async function runDoctor(config: Config, options: DoctorOptions = {}): Promise<CheckResult[]> {
  const clock = options.clock ?? systemClock;
  const now = new Date(clock.now());
  // A connection error may quote the URL it failed on; its password is scrubbed like a key.
  registerSecrets([passwordOf(config.databaseUrl)]);
  const http = doctorHttp(config, clock);
  try {
    const { account } = options;
    const [database, registry, queue] = await Promise.all([
      checkDatabase(config, now),
      checkRegistry(config, http),
      account
        ? Promise.all([checkKeyRefusal(config, account.apiKeyEnv), checkQueue(config, account.name)]).then(
            ([refusal, queue]) => [refusal, ...queue],
          )
        : Promise.resolve([]),
    ]);
    const alerts = await checkAlerts(config, database.rules);
    const search = config.searchUrl
      ? [
          registry.search,
          judgeQuota(database.searchUsed, config.searchMonthlyQuota, nextMonth(now, config.tz)),
        ]
      : [registry.search];
    const results = [
      ...judgeConfig(config, options.env ?? process.env, options.dotenv),
      ...(account ? judgeAccountKeys(account, options.env ?? process.env) : []),
      ...database.results,
      ...registry.watch,
      ...search,
      scheduleCheck(config),
      ...alerts,
      // Not read when the database was not (its own lines say why).
      ...(database.delivery ? [judgeDelivery(database.delivery, config.tz)] : []),
      ...queue,
    ];
    return account ? inAccountTerms(results, account) : results;
  } finally {
    await http.close();
  }
}

async function checkRegistry(
  config: Config,
  http: DoctorHttp,
): Promise<{ watch: CheckResult[]; search: CheckResult }> {
  // The search interface gets a connection and no request: every search request costs quota,
  // and one without the key is outside the registry's contract.
  const [lists, searchReach] = await Promise.all([
    http.watch ? http.readLists() : Promise.resolve(undefined),
    config.searchUrl
      ? connectTo(config.searchUrl, Math.min(config.requestTimeoutMs, CONNECT_TIMEOUT_MS))
      : Promise.resolve(undefined),
  ]);
  const description = await describe(config, http, lists);
  const origins: CheckResult[] = [];
  for (const origin of config.fileOrigins) {
    const probe = origin === http.watchOrigin ? lists : await http.touchFileOrigin(origin);
    origins.push(
      judgeFileOrigin({
        origin,
        watchOrigin: http.watchOrigin,
        probe,
        credentialsSent: http.credentialsSentTo(origin),
        fetchFilesNone: config.fetchFiles.kind === "none",
      }),
    );
  }
  const search = judgeSearch({
    configured: Boolean(config.searchUrl),
    reach: searchReach,
    sameKeyAsWatch: config.searchApiKey === config.apiKey,
    watchKey: watchKeyVerdict(lists),
  });
  return {
    watch: [judgeWatchRead(lists, Boolean(config.clientId)), judgeClock(lists), description, ...origins],
    search,
  };
}

/** The registry's description, read through the watch client (its pace, the key's origin rule). */
async function describe(config: Config, http: DoctorHttp, lists: Probe | undefined): Promise<CheckResult> {
  if (!http.watch || !config.watchUrl)
    return judgeDescription(undefined, config, "the watch interface is not configured");
  if (lists?.kind !== "answered") return judgeDescription(undefined, config);
  try {
    return judgeDescription(await readDescription(http.watch, config.watchUrl), config);
  } catch (error) {
    return judgeDescription(undefined, config, `reading it failed: ${coerceError(error).message}`);
  }
}

/** The next three runs as the daemon's scheduler (node-cron, in REGWATCH_TZ) computes them. */
function scheduleCheck(config: Config): CheckResult {
  const task = nodeCron().createTask(config.schedule, () => {}, { timezone: config.tz });
  try {
    return judgeSchedule({
      schedule: config.schedule,
      tz: config.tz,
      registryTz: config.registryTz,
      nextRuns: task.getNextRuns(3),
    });
  } finally {
    void task.destroy();
  }
}

async function checkAlerts(config: Config, rules: AlertRuleFacts[] | undefined): Promise<CheckResult[]> {
  const timeoutMs = Math.min(config.requestTimeoutMs, CONNECT_TIMEOUT_MS);
  const emailRules = rules?.filter((r) => r.channel === "email").length;
  const byOrigin = new Map<string, { target: string; rules: string[] }>();
  for (const rule of rules?.filter((r) => r.channel === "webhook") ?? []) {
    const origin = originOf(rule.target);
    const entry = byOrigin.get(origin) ?? { target: rule.target, rules: [] };
    entry.rules.push(rule.name);
    byOrigin.set(origin, entry);
  }
  const [verified, targets] = await Promise.all([
    config.smtpUrl ? verifySmtp(config.smtpUrl, timeoutMs) : Promise.resolve(undefined),
    Promise.all(
      [...byOrigin].map(
        async ([origin, entry]): Promise<WebhookTarget> => ({
          origin,
          rules: entry.rules,
          reach: await connectTo(entry.target, timeoutMs),
        }),
      ),
    ),
  ]);
  return [
    judgeEmail({ rules: emailRules, smtpUrl: config.smtpUrl, mailFrom: config.mailFrom, verified }),
    ...judgeWebhooks(rules === undefined ? undefined : targets, Boolean(config.webhookSecret)),
  ];
}

/** scheme://host[:port] of a target; the target itself when it is not a URL (shown as given). */
function originOf(target: string): string {
  try {
    return new URL(target).origin;
  } catch {
    return target;
  }
}

function nextMonth(now: Date, timeZone: string): string {
  const [year, month] = localDateTime(now, timeZone).date.split("-").map(Number) as [number, number];
  return month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, "0")}-01`;
}

function passwordOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return decodeURIComponent(new URL(url).password) || undefined;
  } catch {
    return undefined;
  }
}
