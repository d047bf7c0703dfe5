/**
 * A queue worker: graphile-worker's runner on regwatch's database, running the fleet's jobs
 * (tasks.ts) up to `concurrency` at once (one per account at a time: each account has a queue of
 * its own), with a heartbeat and the lease sweep (leases.ts), the jobs whose end the queue lost
 * with a connection settled again (settle.ts), and a stop that lets work in flight commit.
 * `regwatch worker` runs it alone; `daemon --worker` runs it in the daemon's process.
 *
 *   stop: no new jobs → running jobs' signals aborted (windows and files in flight commit, their
 *   runs end partial and the jobs are tried again later) → wait up to the bound → whatever is
 *   still held is unlocked for the other workers → row marked stopped → connections closed
 */
import { EventEmitter } from "node:events";
import { hostname } from "node:os";
import { run, type WorkerEvents } from "graphile-worker";
import { DEFAULT_SCHEMA } from "../account-name.ts";
import { type Account, loadAccounts } from "../accounts.ts";
import type { Config } from "../config.ts";
import { openDatabase, preparesStatements } from "../db/connect.ts";
import { migrationsCurrent, runMigrations } from "../db/migrate.ts";
import { ConfigError, coerceError } from "../errors.ts";
import type { Logger } from "../logger.ts";
import { keepLease } from "./leases.ts";
import { installQueue, queueLogger } from "./queue.ts";
import { guardLostQueueWrites, JobLedger, keepJobsSettled } from "./settle.ts";
import { markWorkerStopped, unlockWorkerJobs } from "./sql/workers.ts";
import { AccountDatabases, taskList } from "./tasks.ts";

export interface WorkerOptions {
  config: Config;
  log: Logger;
  /** Jobs run at once at most (different accounts). */
  concurrency: number;
  /** The accounts (default: REGWATCH_ACCOUNTS_FILE's). */
  accounts?: readonly Account[];
  /** Seconds a job waits for its account's run lock before it fails (and is retried). */
  lockWaitSeconds?: number;
  /** How often jobs due later (retries) are looked for; new jobs are announced at once. */
  pollIntervalMs?: number;
  env?: NodeJS.ProcessEnv;
}

export interface RunningWorker {
  /** The worker's pool id in the queue (its heartbeat row's id). */
  id: string;
  /**
   * Stops taking jobs, aborts the running ones and waits for them up to `timeoutMs`; then
   * releases what it still holds. Resolves when the worker has stopped, true when no job was left
   * running; calling again is harmless.
   */
  stop(timeoutMs: number): Promise<boolean>;
  /** Resolves once the worker has stopped; rejects when the runner failed on its own. */
  done: Promise<void>;
}

/** The queue runner's connections: one listening for new jobs, one taking and settling them. */
const QUEUE_POOL_SIZE = 2;

export const WORKER_DEFAULTS = { concurrency: 4, stopTimeoutSeconds: 30, lockWaitSeconds: 5 } as const;

export async function startWorker(options: WorkerOptions): Promise<RunningWorker> {
  const { config, log } = options;
  const accounts = options.accounts ?? loadAccounts(config);
  if (!accounts)
    throw new ConfigError([
      "REGWATCH_ACCOUNTS_FILE: required by the queue worker (it runs the jobs of the accounts it lists)",
    ]);
  // One pool for the whole worker, whatever the number of accounts: a connection per job running,
  // and one for the heartbeat, the lease sweep and the run leases' renewals. Each statement runs in
  // its account's schema (db/scoped-sql.ts). With the queue's two, `concurrency` + 3 in all.
  const home = await openDatabase({ ...config, schema: DEFAULT_SCHEMA }, { max: options.concurrency + 1 });
  const databases = new AccountDatabases(home, config.registryTz);
  const releasers: Array<() => Promise<unknown>> = [() => home.close(), () => databases.closeAll()];
  const releaseAll = async () => {
    for (const release of releasers.reverse())
      await release().catch((e) => log.warn({ err: coerceError(e).message }, "closing failed"));
  };
  try {
    if (!(await migrationsCurrent(home.sql, DEFAULT_SCHEMA)))
      await runMigrations(home.url, DEFAULT_SCHEMA, { registryTz: config.registryTz });
    await installQueue(home.url, log);

    // The queue's lost writes of a job's end are logged, then written again by the settle keeper.
    const unguard = guardLostQueueWrites(log);
    releasers.push(async () => unguard());
    const ledger = new JobLedger();
    const stopping = new AbortController();
    const counts = { running: 0, done: 0, failed: 0 };
    const lockIds: string[] = [];
    let poolId = "";
    const events: WorkerEvents = new EventEmitter();
    // The queue writes the pool's id in locked_by (0.17); its workers' ids are kept too, as the
    // ids a later version or a local queue may lock with.
    events.on("pool:create", ({ workerPool }) => {
      poolId = workerPool.id;
      lockIds.push(workerPool.id);
    });
    events.on("worker:create", ({ worker }) => {
      lockIds.push(worker.workerId);
    });
    const runner = await run({
      connectionString: home.url,
      concurrency: options.concurrency,
      // One connection to listen for new jobs, one to take and settle them (short statements).
      maxPoolSize: QUEUE_POOL_SIZE,
      // A pooler in transaction mode keeps no prepared statement (DATABASE_URL with prepare=false).
      noPreparedStatements: !preparesStatements(home.url),
      noHandleSignals: true,
      pollInterval: options.pollIntervalMs ?? 2000,
      parsedCronItems: [],
      events,
      logger: queueLogger(log),
      taskList: taskList(
        {
          base: config,
          accounts,
          log,
          stopSignal: stopping.signal,
          lockWaitSeconds: options.lockWaitSeconds ?? WORKER_DEFAULTS.lockWaitSeconds,
          env: options.env,
          ledger,
          onJob: (event) => {
            if (event === "start") counts.running++;
            else {
              counts.running--;
              counts[event]++;
            }
          },
        },
        databases,
      ),
    });
    const id = poolId;
    const lease = keepLease({
      sql: home.sql,
      log,
      leaseSeconds: config.jobLeaseS,
      row: () => ({
        id,
        lockIds,
        host: hostname(),
        pid: process.pid,
        concurrency: options.concurrency,
        jobsRunning: counts.running,
        jobsDone: counts.done,
        jobsFailed: counts.failed,
      }),
    });
    await lease.beat();
    const settling = keepJobsSettled({ sql: home.sql, log, ledger, lockIds: () => lockIds });
    log.info(
      { worker: id, concurrency: options.concurrency, accounts: accounts.map((a) => a.name) },
      "worker started; waiting for jobs",
    );

    let stopped: Promise<boolean> | undefined;
    const stop = (timeoutMs: number) => {
      stopped ??= (async () => {
        log.info({ worker: id, running: counts.running }, "stopping: no new jobs; work in flight commits");
        stopping.abort();
        let timer: NodeJS.Timeout | undefined;
        const finished = await Promise.race([
          runner.stop().then(
            () => true,
            () => true,
          ),
          new Promise<boolean>((resolve) => {
            timer = setTimeout(() => resolve(false), timeoutMs);
          }),
        ]);
        clearTimeout(timer);
        await lease.stop();
        await settling.stop();
        if (!finished)
          log.error(
            { worker: id, boundMs: timeoutMs },
            "jobs in flight did not finish in time; released for the other workers",
          );
        // The queue records a failed try without waiting for it, so its write may not have been
        // made when the runner says it has stopped: whatever this worker still holds is let go.
        await unlockWorkerJobs(home.sql, lockIds).catch((e) =>
          log.warn({ err: coerceError(e).message }, "releasing the worker's jobs failed"),
        );
        await markWorkerStopped(home.sql, id, "stopped").catch(() => {});
        await releaseAll();
        log.info({ worker: id, clean: finished }, "worker stopped");
        return finished;
      })();
      return stopped;
    };
    // The runner ending on its own (its database gone for good, say) stops the worker too.
    const done = runner.promise.then(
      () => stop(0),
      async (error) => {
        await stop(0);
        throw error;
      },
    );
    done.catch(() => {});
    return { id, stop, done: done.then(() => undefined) };
  } catch (error) {
    await releaseAll();
    throw error;
  }
}
