/**
 * The fleet's jobs as data: their kinds and payloads, the queue each runs in and the key that
 * de-duplicates it. Pure: nothing here touches the queue or the database.
 *
 * Every job of one account runs in the account's own named queue, which the queue runs one job
 * at a time across every worker: an account's jobs never overlap, anywhere. The job key names
 * what the job is for (the account, the kind, the account's local day or the backfill's range);
 * a job asked for again while one with its key is queued or running is not added twice (one that
 * failed for good is replaced: queue.ts `freesFailedKey`).
 */
import { ACCOUNT_NAME } from "../account-name.ts";
import { isValidDate, localDateTime } from "../dates.ts";

export const JOB_KINDS = ["sync", "backfill", "reconcile", "deliver"] as const;
export type JobKind = (typeof JOB_KINDS)[number];

/** What a job carries; `day` is the account's local day the job was asked for. */
export type JobPayload = (
  | { kind: "sync"; account: string; day: string }
  | { kind: "reconcile"; account: string; day: string }
  | { kind: "backfill"; account: string; from: string; to: string }
  | { kind: "deliver"; account: string }
) & {
  /** Queued by a person (`regwatch enqueue`), not by the daemon: its runs say `manual`. */
  manual?: true;
};

/** Task names in the queue: one per kind, prefixed so they cannot meet another program's. */
export const TASK_PREFIX = "regwatch_";

export function taskName(kind: JobKind): string {
  return `${TASK_PREFIX}${kind}`;
}

export function queueName(account: string): string {
  return `regwatch:${account}`;
}

/** The account a queue name belongs to; undefined for a queue that is not regwatch's. */
export function accountOfQueue(queue: string | null): string | undefined {
  if (!queue?.startsWith("regwatch:")) return undefined;
  return queue.slice("regwatch:".length);
}

export function jobKey(job: JobPayload): string {
  switch (job.kind) {
    case "backfill":
      return `${job.account}:backfill:${job.from}..${job.to}`;
    case "deliver":
      return `${job.account}:deliver`;
    default:
      return `${job.account}:${job.kind}:${job.day}`;
  }
}

/** The account's local day at `now`, in its zone: the day a sync or reconcile job is for. */
export function accountDay(now: Date, timeZone: string): string {
  return localDateTime(now, timeZone).date;
}

/** The job a kind asked for on the command line (or by the daemon) makes for one account. */
export function jobFor(
  kind: JobKind,
  account: string,
  day: string,
  range?: { from: string; to: string },
): JobPayload {
  switch (kind) {
    case "backfill":
      if (!range) throw new Error("a backfill job needs its range (from, to)");
      return { kind, account, from: range.from, to: range.to };
    case "deliver":
      return { kind, account };
    default:
      return { kind, account, day };
  }
}

/**
 * Checks a payload read back from the queue (anyone with access to the queue's tables can add a
 * row): the kind the task says, a valid account name, real dates. Throws naming what is wrong.
 */
export function parsePayload(kind: JobKind, payload: unknown): JobPayload {
  if (typeof payload !== "object" || payload === null || Array.isArray(payload))
    throw new Error(`${kind} job: the payload must be an object`);
  const p = payload as Record<string, unknown>;
  const problems: string[] = [];
  const account = typeof p.account === "string" ? p.account : "";
  if (!ACCOUNT_NAME.test(account)) problems.push("account must be an account name");
  const dateField = (name: string): string => {
    const value = p[name];
    if (typeof value !== "string" || !isValidDate(value)) {
      problems.push(`${name} must be a date as YYYY-MM-DD`);
      return "";
    }
    return value;
  };
  let job: JobPayload;
  if (kind === "backfill") {
    job = { kind, account, from: dateField("from"), to: dateField("to") };
    if (problems.length === 0 && job.to < job.from) problems.push(`to ${job.to} is before from ${job.from}`);
  } else if (kind === "deliver") job = { kind, account };
  else job = { kind, account, day: dateField("day") };
  if (p.manual !== undefined && p.manual !== true) problems.push("manual must be true when given");
  if (problems.length > 0) throw new Error(`${kind} job: ${problems.join("; ")}`);
  return p.manual === true ? { ...job, manual: true } : job;
}
