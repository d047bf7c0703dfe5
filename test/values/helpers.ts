/** What the value tests share: well-formed tax ids and a sync against a hostile registry at a set time. */
import { loadConfig } from "../../src/config.ts";
import type { Sql } from "../../src/db/connect.ts";
import { runSyncJob, type SyncJobResult } from "../../src/jobs/sync-job.ts";
import { silentLogger } from "../../src/logger.ts";
import { checkDigit } from "../../src/taxid.ts";
import { type HostileRegistry, hostileEnv } from "../helpers/hostile-registry.ts";

/** 08:00 in Budapest on 10 March 2024: 9 March is the last complete day. */
export const MORNING = new Date("2024-03-10T08:00:00+01:00");

/** The n-th tax base number of a series (`series` 1-8), with a correct check digit. */
export function taxIdOf(series: number, n: number): string {
  const first = String(series * 1_000_000 + n * 1111);
  return `${first}${checkDigit(first)}`;
}

/** One sync job in-process against the registry, at `now`. */
export function syncHostile(sql: Sql, registry: HostileRegistry, now = MORNING): Promise<SyncJobResult> {
  return runSyncJob(
    { sql, config: loadConfig(hostileEnv(registry)), log: silentLogger, trigger: "cli", now: () => now },
    { kind: "sync" },
  );
}
