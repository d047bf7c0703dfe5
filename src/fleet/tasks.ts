/**
 * The queue's task handlers, one per job kind: check the payload, find the account in the
 * accounts file, build its Config, open (once per process) its database session, and run the
 * job (account-runs.ts). Each job's start and end are logged with its account, kind and id.
 */
import type { JobHelpers, TaskList } from "graphile-worker";
import { type Account, accountConfig } from "../accounts.ts";
import type { Config } from "../config.ts";
import { type Database, forSchema } from "../db/connect.ts";
import { migrateSchema, migrationsCurrent } from "../db/migrate.ts";
import { coerceError } from "../errors.ts";
import type { Logger } from "../logger.ts";
import { redactSecrets } from "../secrets.ts";
import { JobRunError, KeyRefusedError, runAccountJob, watchConfigOf } from "./account-runs.ts";
import { JOB_KINDS, type JobKind, parsePayload, taskName } from "./jobs.ts";
import { heldBack, noteKeyOutcome } from "./key-guard.ts";
import type { JobLedger } from "./settle.ts";

export interface TaskContext {
  base: Config;
  accounts: readonly Account[];
  log: Logger;
  /** Aborted when the worker stops. */
  stopSignal: AbortSignal;
  lockWaitSeconds: number;
  /** Told when a job starts and ends (the worker's counters). */
  onJob?: (event: "start" | "done" | "failed") => void;
  /** Told each try's start and how its handler ended, for the queue's lost writes (settle.ts). */
  ledger?: JobLedger;
  env?: NodeJS.ProcessEnv;
}

/** What a job holds of its account's database, and the function to call when it is done with it. */
export interface HeldSession {
  db: Database;
  release: () => void;
}

/**
 * The accounts' databases over the worker's one pool (db/scoped-sql.ts): an account's first job
 * checks its schema (migrating it when behind), later jobs find it checked. No connection belongs
 * to an account, so the worker's connections do not grow with the accounts it serves.
 */
export class AccountDatabases {
  private readonly checked = new Map<string, Promise<void>>();

  constructor(
    private readonly home: Database,
    private readonly registryTz?: string,
  ) {}

  /** The account's Database, its schema current. */
  async use(schema: string): Promise<HeldSession> {
    const db = forSchema(this.home, schema);
    let check = this.checked.get(schema);
    if (!check) {
      check = (async () => {
        if (!(await migrationsCurrent(db.sql, schema)))
          await migrateSchema(this.home.pool, schema, undefined, { registryTz: this.registryTz });
      })();
      this.checked.set(schema, check);
      check.catch(() => this.checked.delete(schema));
    }
    await check;
    return { db, release: () => {} };
  }

  async closeAll(): Promise<void> {}
}

export function taskList(ctx: TaskContext, databases: AccountDatabases): TaskList {
  const tasks: TaskList = {};
  for (const kind of JOB_KINDS) {
    tasks[taskName(kind)] = async (payload, helpers) => {
      const job = { id: String(helpers.job.id), attempts: helpers.job.attempts };
      ctx.ledger?.started(job);
      try {
        await runTask(ctx, databases, kind, payload, helpers);
        ctx.ledger?.ended(job, { ok: true }, Date.now());
      } catch (thrown) {
        ctx.ledger?.ended(job, { ok: false, message: coerceError(thrown).message }, Date.now());
        throw thrown;
      }
    };
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
