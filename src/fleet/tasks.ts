/**
 * The queue's task handlers, one per job kind: check the payload, find the account in the
 * accounts file, build its Config, open (once per process) its database session, and run the
 * job (account-runs.ts). Each job's start and end are logged with its account, kind and id.
 */
import type { JobHelpers, TaskList } from "graphile-worker";
import { type Account, accountConfig } from "../accounts.ts";
import type { Config } from "../config.ts";
import { type Database, openDatabase } from "../db/connect.ts";
import { type HeldSession, IdleClosingSessions } from "../db/idle-sessions.ts";
import { migrationsCurrent, runMigrations } from "../db/migrate.ts";
import { coerceError } from "../errors.ts";
import type { Logger } from "../logger.ts";
import { redactSecrets } from "../secrets.ts";
import { JobRunError, KeyRefusedError, runAccountJob, watchConfigOf } from "./account-runs.ts";
import { JOB_KINDS, type JobKind, parsePayload, taskName } from "./jobs.ts";
import { heldBack, noteKeyOutcome } from "./key-guard.ts";

export interface TaskContext {
  base: Config;
  accounts: readonly Account[];
  log: Logger;
  /** Aborted when the worker stops. */
  stopSignal: AbortSignal;
  lockWaitSeconds: number;
  /** Told when a job starts and ends (the worker's counters). */
  onJob?: (event: "start" | "done" | "failed") => void;
  env?: NodeJS.ProcessEnv;
}

/**
 * An account's session closes once no job has used it for this long (its connections with it). A
 * job runs for seconds to hours and opening a session costs milliseconds, so it is kept only across
 * jobs that follow one another closely: a worker passing through hundreds of accounts must not
 * hold a pool for each of them (Postgres's 100 connections by default are shared by the fleet).
 */
const IDLE_CLOSE_MS = 5_000;

/**
 * One database session per account, opened (and its schema migrated) by the account's first job
 * and kept while its jobs come; closed a few seconds after its last one (db/idle-sessions.ts).
 */
export class AccountDatabases {
  private readonly sessions = new IdleClosingSessions((schema) => this.connect(schema), IDLE_CLOSE_MS);

  constructor(private readonly base: Config) {}

  /** The account's session, and the function to call when the job is done with it. */
  use(schema: string): Promise<HeldSession> {
    return this.sessions.use(schema);
  }

  closeAll(): Promise<void> {
    return this.sessions.closeAll();
  }

  private async connect(schema: string): Promise<Database> {
    const opened = await openDatabase({ ...this.base, schema });
    try {
      if (!(await migrationsCurrent(opened.sql, schema))) await runMigrations(opened.url, schema);
      return opened;
    } catch (error) {
      await opened.close();
      throw error;
    }
  }
}

export function taskList(ctx: TaskContext, databases: AccountDatabases): TaskList {
  const tasks: TaskList = {};
  for (const kind of JOB_KINDS) {
    tasks[taskName(kind)] = (payload, helpers) => runTask(ctx, databases, kind, payload, helpers);
  }
  return tasks;
}

async function runTask(
  ctx: TaskContext,
  databases: AccountDatabases,
  kind: JobKind,
  payload: unknown,
  helpers: JobHelpers,
): Promise<void> {
  const { job } = helpers;
  const fields = { jobId: String(job.id), kind, attempt: job.attempts, maxAttempts: job.max_attempts };
  const started = Date.now();
  ctx.onJob?.("start");
  let account: string | undefined;
  try {
    const parsed = parsePayload(kind, payload);
    account = parsed.account;
    ctx.log.info({ ...fields, account, key: job.key }, "job started");
    const entry = ctx.accounts.find((a) => a.name === parsed.account);
    if (!entry) throw new JobRunError(`account ${parsed.account} is not in the accounts file`);
    const config = watchConfigOf(accountConfig(ctx.base, entry, ctx.env));
    const { db, release } = await databases.use(entry.schema);
    const log = ctx.log.child({ account: entry.name, jobId: fields.jobId });
    const signal = AbortSignal.any([ctx.stopSignal, helpers.abortSignal]);
    // Delivery sends alerts, not registry requests: a refused key does not hold it back.
    const callsRegistry = kind !== "deliver";
    try {
      const held = callsRegistry ? await heldBack(db.sql, config) : undefined;
      if (held) {
        ctx.onJob?.("done");
        ctx.log.warn({ ...fields, account, keyVariable: entry.apiKeyEnv }, `job not run: ${held}`);
        return;
      }
      let refused: KeyRefusedError | undefined;
      try {
        await runAccountJob({ config, db, log, signal, lockWaitSeconds: ctx.lockWaitSeconds }, parsed);
      } catch (thrown) {
        if (!(thrown instanceof KeyRefusedError)) throw thrown;
        refused = thrown;
      } finally {
        if (callsRegistry && !signal.aborted) await noteKeyOutcome(db.sql, config, refused);
      }
      if (refused) {
        // Not thrown: the queue would try it again with the key the registry has just refused.
        ctx.onJob?.("failed");
        ctx.log.error(
          { ...fields, account, keyVariable: entry.apiKeyEnv, err: redactSecrets(refused.message) },
          `job stopped: the registry refused the key in ${entry.apiKeyEnv}; not tried again: the account's jobs wait until ${entry.apiKeyEnv} holds another key or the next day's slot`,
        );
        return;
      }
    } finally {
      release();
    }
    ctx.onJob?.("done");
    ctx.log.info({ ...fields, account, seconds: (Date.now() - started) / 1000 }, "job finished");
  } catch (thrown) {
    ctx.onJob?.("failed");
    const message = redactSecrets(coerceError(thrown).message);
    const last = job.attempts >= job.max_attempts;
    ctx.log[last ? "error" : "warn"](
      { ...fields, account, seconds: (Date.now() - started) / 1000, err: message },
      last
        ? "job failed; no attempts left, it stays failed in the queue"
        : "job failed; it will be tried again",
    );
    // Only the scrubbed message goes back to the queue, which stores it as the job's last error.
    throw new JobRunError(message);
  }
}
