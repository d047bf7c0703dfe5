/** What a reconcile run is given to work with, and the statuses it ends in. */
import type { RegistryClients } from "../api/registry.ts";
import type { Config } from "../config.ts";
import type { Database } from "../db/connect.ts";
import type { Logger } from "../logger.ts";
import type { RunLock } from "../run/lock.ts";
import type { UsageRecorder } from "../run/usage.ts";

export interface ReconcileContext {
  config: Pick<Config, "bulkChunkSize" | "concurrency" | "registryTz">;
  log: Logger;
  db: Pick<Database, "sql">;
  registry: Pick<RegistryClients, "watch">;
  /** Request counts, flushed while the run goes on and at its end, when given. */
  usage?: UsageRecorder;
  /** The run lock the caller holds (the daemon's job); without it the run takes its own. */
  lock?: RunLock;
  /** Seconds to wait for another run's lock when taking it (`--wait`). */
  waitSeconds?: number;
}

/** in-sync: nothing to do; pending: a dry run found changes; refused: a guard stopped the run. */
export type ReconcileStatus = "in-sync" | "pending" | "applied" | "partial" | "refused" | "failed";
