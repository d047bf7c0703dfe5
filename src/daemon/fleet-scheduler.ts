/**
 * The fleet daemon's scheduler: each account's schedule fires in the account's zone, and a check
 * every `checkEveryMs` catches up what is due (a slot missed while the daemon was down, a stopped
 * or failed run whose backoff is over). A due slot becomes a `sync` job for the slot's local day;
 * an outbox with messages due becomes a `deliver` job. The daemon only asks the queue: workers run.
 * One account's failure to be read (its schema not migrated, say) is logged and never holds back
 * another account's jobs.
 */
import type { ScheduledTask } from "node-cron";
import { nodeCron } from "../cron.ts";
import type { Sql } from "../db/connect.ts";
import { coerceError } from "../errors.ts";
import { jobKey } from "../fleet/jobs.ts";
import type { ReplacedJob } from "../fleet/queue.ts";
import { deliveriesDue, withAccountSchema } from "../fleet/sql/status.ts";
import type { Logger } from "../logger.ts";
import { type AccountSchedule, DeliverThrottle, type ScheduledJob, syncJobFor } from "./fleet-plan.ts";
import { slotDecision } from "./resume-state.ts";
import { type CronSchedule, cronSchedule } from "./schedule.ts";

export interface FleetSchedulerDeps {
  /** A client on the fleet's home database; each account is read in its own schema (withAccountSchema). */
  sql: Sql;
  accounts: readonly AccountSchedule[];
  /**
   * Adds jobs to the queue (its job key dedupes a job asked for twice); what became of each, when
   * known: "added", or the state of the job already there under its key ("failed": for good).
   */
  enqueue: (jobs: ScheduledJob[]) => Promise<readonly EnqueueAnswer[] | undefined>;
  log: Logger;
  now?: () => Date;
  deliverEveryMs?: number;
}

/** What the queue said of one job asked for ("replaced": a failed job under its key was removed). */
export interface EnqueueAnswer {
  key: string;
  state: string;
  id?: string;
  replaced?: ReplacedJob;
}

interface Scheduled {
  account: AccountSchedule;
  task: ScheduledTask;
  schedule: CronSchedule;
}

export class FleetScheduler {
  private readonly scheduled: Scheduled[];
  private readonly throttle: DeliverThrottle;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = false;
  /**
   * Per account and kind, the key last asked for and what the queue said of it: a job is said at
   * info level when first asked for (or found failed for good), at debug after. Bounded by the
   * number of accounts.
   */
  private readonly asked = new Map<string, string>();

  constructor(private readonly deps: FleetSchedulerDeps) {
    this.throttle = new DeliverThrottle(deps.deliverEveryMs);
    this.scheduled = deps.accounts.map((account) => {
      const task = nodeCron().createTask(account.schedule, () => void this.checkSoon("schedule", account), {
        name: `regwatch-fleet-${account.account}`,
        timezone: account.timeZone,
        noOverlap: true,
      });
      const schedule = cronSchedule(account.schedule, account.timeZone, (instant) => task.match(instant));
      return { account, task, schedule };
    });
  }

  /** Starts every account's schedule, checks at once (catch-up), then every `checkEveryMs`. */
  async start(checkEveryMs: number): Promise<void> {
    for (const s of this.scheduled) await s.task.start();
    this.deps.log.info(
      {
        accounts: this.scheduled.map((s) => ({
          account: s.account.account,
          schedule: s.account.schedule,
          timeZone: s.account.timeZone,
          next: s.task.getNextRun(),
        })),
      },
      "fleet scheduler started; checking every account for a missed run",
    );
    void this.checkSoon("catchup");
    this.timer = setInterval(() => void this.checkSoon("catchup"), checkEveryMs);
  }

  /** No new checks; waits for the one in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    for (const s of this.scheduled) await s.task.destroy();
    await this.running;
  }

  /**
   * One check of every account (or one): the jobs asked for, in account order. Checks never
   * overlap: one asked for while another runs waits for it.
   */
  async check(trigger: "schedule" | "catchup", only?: AccountSchedule): Promise<ScheduledJob[]> {
    const previous = this.running;
    const next = (async () => {
      await previous?.catch(() => {});
      return this.checkNow(trigger, only);
    })();
    this.running = next;
    return next;
  }

  private checkSoon(trigger: "schedule" | "catchup", only?: AccountSchedule): Promise<unknown> {
    if (this.stopped) return Promise.resolve();
    return this.check(trigger, only).catch((error) =>
      this.deps.log.error({ trigger, err: coerceError(error).message }, "fleet check failed"),
    );
  }

  private async checkNow(trigger: "schedule" | "catchup", only?: AccountSchedule): Promise<ScheduledJob[]> {
    const now = (this.deps.now ?? (() => new Date()))();
    const jobs: ScheduledJob[] = [];
    for (const s of this.scheduled) {
      if (only && s.account.account !== only.account) continue;
      if (this.stopped) break;
      try {
        jobs.push(...(await this.accountJobs(s, now, trigger)));
      } catch (error) {
        this.deps.log.error(
          { account: s.account.account, trigger, err: coerceError(error).message },
          "account check failed; the next check tries again",
        );
      }
    }
    if (jobs.length > 0) {
      const results = (await this.deps.enqueue(jobs)) ?? [];
      const answerOf = new Map(results.map((r) => [r.key, r]));
      for (const job of jobs) this.said(job, answerOf.get(jobKey(job)), trigger);
    }
    return jobs;
  }

  private said(job: ScheduledJob, answer: EnqueueAnswer | undefined, trigger: string): void {
    const key = jobKey(job);
    const state = answer?.state;
    if (state === "replaced" && answer?.replaced) {
      const { id, attempts, lastError } = answer.replaced;
      this.asked.set(`${job.account}:${job.kind}`, `${key} added`);
      this.deps.log.warn(
        { ...job, key, trigger, jobId: answer.id, failedJobId: id, failedAttempts: attempts, lastError },
        `the ${job.kind} job ${id} had failed for good (${attempts} attempts); it was removed and job ${answer.id} added in its place`,
      );
      return;
    }
    const seen = `${key} ${state ?? ""}`;
    const fresh = this.asked.get(`${job.account}:${job.kind}`) !== seen;
    this.asked.set(`${job.account}:${job.kind}`, seen);
    if (state === "failed") {
      if (fresh)
        this.deps.log.warn(
          { ...job, key, trigger },
          `the ${job.kind} job for this key failed for good and stays failed; the account's next slot asks for a new one`,
        );
      return;
    }
    this.deps.log[fresh ? "info" : "debug"]({ ...job, key, state, trigger }, `${job.kind} job asked for`);
  }

  private async accountJobs(s: Scheduled, now: Date, trigger: string): Promise<ScheduledJob[]> {
    const { account, schedule } = s;
    const lookAtOutbox = this.throttle.take(account.account, now);
    const { slot, decision, deliver } = await withAccountSchema(
      this.deps.sql,
      account.schema,
      async (sql) => ({
        ...(await slotDecision(sql, schedule, now)),
        deliver: lookAtOutbox ? await deliveriesDue(sql, now) : false,
      }),
    );
    const jobs: ScheduledJob[] = [];
    const sync = syncJobFor(account, slot, decision);
    if (sync) jobs.push(sync);
    else this.deps.log.debug({ account: account.account, trigger, reason: decision.reason }, "no run due");
    if (deliver) jobs.push({ kind: "deliver", account: account.account });
    return jobs;
  }
}
