/**
 * `regwatch status --fleet`: one line per account (its last run, how far its lists are covered,
 * its open change files, its jobs in the queue) and one per queue worker (alive, jobs). The
 * accounts' schemas are read ten a statement (account-summaries.ts); the queue and the
 * workers from the fleet's home. An account that cannot be read (not migrated yet, say) is a line
 * saying so.
 */
import { keyFingerprint } from "../account-keys.ts";
import type { Config } from "../config.ts";
import { isoInZone, localDateTime, zonedStamp } from "../dates.ts";
import type { Sql } from "../db/connect.ts";
import { describeKeyHold, type KeyHold, keyHold } from "../fleet/key-hold.ts";
import { queueCounts } from "../fleet/queue-counts.ts";
import {
  type AccountRunSummary,
  accountSummaries,
  type SummaryOrError,
} from "../fleet/sql/account-summaries.ts";
import type { KeyRefusalRow } from "../fleet/sql/key-refusals.ts";
import { queueSchemaInstalled } from "../fleet/sql/status.ts";
import { listWorkers } from "../fleet/sql/workers.ts";
import { terminalSafe } from "../formats/terminal-text.ts";
import { daysBehind, type ScheduledAccount } from "./fleet-plan.ts";

export interface FleetJobCounts {
  queued: number;
  running: number;
  failed: number;
}

export interface FleetAccountStatus {
  account: string;
  schema: string;
  /** False when the account's schema has no tables yet (`regwatch migrate` creates them). */
  migrated: boolean;
  lastRun: AccountRunSummary | null;
  /** Every live list is covered up to this day (null: nothing covered yet). */
  coverageEnd: string | null;
  daysBehind: number | null;
  lists: number;
  openFiles: number;
  jobs: FleetJobCounts;
  /** The registry's refusal of the account's key, when one is recorded (key_refusals). */
  keyRefusal: FleetKeyRefusal | null;
  /** Why the account's tables could not be read, when they could not. */
  error: string | null;
}

export interface FleetKeyRefusal {
  keyVariable: string;
  httpStatus: number | null;
  endpoint: string;
  refusedAt: Date;
  /** `held`: the account's jobs wait; `key changed` / `next day`: the next job tries the key. */
  hold: KeyHold;
  message: string;
}

/** An account as status --fleet reads it: its schedule, and the variable its watch key is in. */
export type ReportedAccount = ScheduledAccount & { apiKeyEnv?: string };

export interface FleetWorkerStatus {
  id: string;
  host: string;
  pid: number;
  alive: boolean;
  running: number;
  done: number;
  failed: number;
  startedAt: Date;
  heartbeatAt: Date;
  stoppedAt: Date | null;
}

export interface FleetStatus {
  generatedAt: string;
  /** REGWATCH_TZ: the zone every time of the report is shown in. */
  timeZone: string;
  accounts: FleetAccountStatus[];
  workers: FleetWorkerStatus[];
}

const NO_JOBS: FleetJobCounts = { queued: 0, running: 0, failed: 0 };

/** Reads the fleet's status; `sql` is a client on the fleet's home schema. */
export async function readFleetStatus(
  sql: Sql,
  accounts: readonly ReportedAccount[],
  config: Pick<Config, "tz" | "registryTz" | "jobLeaseS">,
  now = new Date(),
  env: NodeJS.ProcessEnv = {},
): Promise<FleetStatus> {
  // Before the queue is installed (`regwatch migrate`, a worker or the daemon does it) no job exists.
  const [counts, workers] = await Promise.all([
    queueSchemaInstalled(sql).then((installed) => (installed ? queueCounts(sql) : [])),
    listWorkers(sql, config.jobLeaseS),
  ]);
  const jobsOf = new Map(counts.map((c) => [c.account, c]));
  const summaries = await accountSummaries(
    sql,
    accounts.map((a) => a.schema),
  );
  const lines: FleetAccountStatus[] = [];
  for (const account of accounts) {
    const c = jobsOf.get(account.name);
    const jobs = c ? { queued: c.queued, running: c.running, failed: c.failed } : NO_JOBS;
    const found = summaries.get(account.schema);
    const line = accountLine(account, jobs, found, config.registryTz ?? config.tz, now);
    line.keyRefusal =
      found !== undefined && "summary" in found
        ? refusalOf(found.summary.refusals, account, config.tz, now, env)
        : null;
    lines.push(line);
  }
  return {
    generatedAt: isoInZone(now, config.tz),
    timeZone: config.tz,
    accounts: lines,
    workers: workers.map((w) => ({
      id: w.id,
      host: w.host,
      pid: w.pid,
      alive: w.alive,
      running: w.jobsRunning,
      done: w.jobsDone,
      failed: w.jobsFailed,
      startedAt: w.startedAt,
      heartbeatAt: w.heartbeatAt,
      stoppedAt: w.stoppedAt,
    })),
  };
}

function accountLine(
  account: ScheduledAccount,
  jobs: FleetJobCounts,
  found: SummaryOrError | undefined,
  registryTz: string,
  now: Date,
): FleetAccountStatus {
  const line: FleetAccountStatus = {
    account: account.name,
    schema: account.schema,
    migrated: false,
    lastRun: null,
    coverageEnd: null,
    daysBehind: null,
    lists: 0,
    openFiles: 0,
    jobs,
    keyRefusal: null,
    error: null,
  };
  if (found === undefined) return line;
  if ("error" in found) return { ...line, error: found.error };
  const { summary } = found;
  return {
    ...line,
    migrated: true,
    lastRun: summary.lastRun,
    coverageEnd: summary.coverageEnd,
    daysBehind: daysBehind(summary.coverageEnd, now, registryTz),
    lists: summary.lists,
    openFiles: summary.openFiles,
  };
}

/** The recorded refusal of the account's watch key, judged against the variable's value here. */
function refusalOf(
  rows: readonly KeyRefusalRow[],
  account: ReportedAccount,
  tz: string,
  now: Date,
  env: NodeJS.ProcessEnv,
): FleetKeyRefusal | null {
  if (account.apiKeyEnv === undefined) return null;
  const variable = account.apiKeyEnv;
  const refusal = rows.find((r) => r.keyVariable === variable);
  if (!refusal) return null;
  const value = env[variable];
  const hold = keyHold(
    refusal,
    value ? keyFingerprint(value) : undefined,
    localDateTime(now, account.timezone ?? tz).date,
  );
  return {
    keyVariable: variable,
    httpStatus: refusal.httpStatus,
    endpoint: refusal.endpoint,
    refusedAt: refusal.refusedAt,
    hold,
    message: describeKeyHold(refusal, hold, tz),
  };
}

/** How long ago, in the largest whole unit (s, m, h, d). */
export function ago(then: Date, now: Date): string {
  const s = Math.max(0, Math.round((now.getTime() - then.getTime()) / 1000));
  if (s < 120) return `${s}s ago`;
  if (s < 7200) return `${Math.floor(s / 60)}m ago`;
  if (s < 172_800) return `${Math.floor(s / 3600)}h ago`;
  return `${Math.floor(s / 86_400)}d ago`;
}

/** The text `status --fleet` prints: a table of accounts, then one of workers. */
export function formatFleetStatus(s: FleetStatus): string {
  const now = new Date(s.generatedAt);
  const minute = (d: Date) => zonedStamp(d, s.timeZone);
  const alive = s.workers.filter((w) => w.alive).length;
  const out = [
    `regwatch fleet at ${minute(now)}: ${s.accounts.length} accounts, ${alive} of ${s.workers.length} workers alive`,
    "",
    "Accounts",
  ];
  const accountRows = s.accounts.map((a) => [
    a.account,
    lastRunText(a, now, minute),
    coverageText(a),
    String(a.openFiles),
    String(a.jobs.queued),
    String(a.jobs.running),
    String(a.jobs.failed),
  ]);
  out.push(
    ...table(["ACCOUNT", "LAST RUN", "COVERED TO", "OPEN FILES", "QUEUED", "RUNNING", "FAILED"], accountRows),
  );
  const refused = s.accounts.filter((a) => a.keyRefusal !== null);
  if (refused.length > 0) {
    out.push("", "Keys refused");
    for (const a of refused) out.push(`  ${a.account}: ${a.keyRefusal!.message}`);
  }
  out.push("", "Workers");
  if (s.workers.length === 0)
    out.push("  none has started: run `regwatch worker` or `regwatch daemon --worker`");
  else {
    const workerRows = s.workers.map((w) => [
      w.id,
      w.host,
      String(w.pid),
      w.alive ? "yes" : w.stoppedAt ? "stopped" : "no",
      String(w.running),
      String(w.done),
      String(w.failed),
      `${minute(w.heartbeatAt)} (${ago(w.heartbeatAt, now)})`,
    ]);
    out.push(
      ...table(["WORKER", "HOST", "PID", "ALIVE", "RUNNING", "DONE", "FAILED", "LAST HEARTBEAT"], workerRows),
    );
  }
  // Error texts and the hosts workers wrote reach the terminal escaped, line by line.
  return `${out.map(terminalSafe).join("\n")}\n`;
}

function lastRunText(a: FleetAccountStatus, now: Date, minute: (d: Date) => string): string {
  if (a.error) return `unreadable: ${a.error.split("\n")[0]!.slice(0, 60)}`;
  if (!a.migrated) return "not migrated (run `regwatch migrate`)";
  const r = a.lastRun;
  if (!r) return "none yet";
  const at = r.finishedAt ?? r.startedAt;
  return `${r.kind} ${r.status} ${minute(at)} (${ago(at, now)})`;
}

function coverageText(a: FleetAccountStatus): string {
  if (a.coverageEnd === null) return a.lists === 0 ? "-" : "nothing yet";
  return a.daysBehind ? `${a.coverageEnd} (${a.daysBehind} days behind)` : a.coverageEnd;
}

/** Rows padded to their columns' widths, indented two spaces; the last column is not padded. */
function table(head: string[], rows: string[][]): string[] {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    `  ${cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join("  ")}`.trimEnd();
  return [line(head), ...rows.map(line)];
}
