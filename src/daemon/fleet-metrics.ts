/**
 * The fleet daemon's own metrics, beside the plain daemon's (which carry an `account` label in
 * fleet mode): per account its last finished run, how many days its coverage is behind, and its
 * jobs in the queue; per queue worker whether it is alive. Read at scrape time in one batch (the
 * status --fleet reading), kept for a few seconds like the others.
 */
import { Gauge, type Registry } from "prom-client";
import type { Config } from "../config.ts";
import type { Sql } from "../db/connect.ts";
import type { ScheduledAccount } from "./fleet-plan.ts";
import { type FleetStatus, readFleetStatus } from "./fleet-report.ts";

const SNAPSHOT_TTL_MS = 2000;

export interface FleetMetricsOptions {
  probe: () => Promise<Sql | undefined>;
  accounts: readonly ScheduledAccount[];
  config: Pick<Config, "tz" | "registryTz" | "jobLeaseS">;
  now?: () => Date;
}

export function registerFleetMetrics(registry: Registry, options: FleetMetricsOptions): void {
  const registers = [registry];
  let snapshot: { at: number; value: Promise<FleetStatus | undefined> } | undefined;
  const read = (): Promise<FleetStatus | undefined> => {
    if (!snapshot || Date.now() - snapshot.at > SNAPSHOT_TTL_MS) {
      snapshot = {
        at: Date.now(),
        value: (async () => {
          const sql = await options.probe();
          if (!sql) return undefined;
          const now = (options.now ?? (() => new Date()))();
          return readFleetStatus(sql, options.accounts, options.config, now);
        })().catch(() => undefined),
      };
    }
    return snapshot.value;
  };

  const lastRun = new Gauge({
    name: "regwatch_last_run_end_timestamp_seconds",
    help: "Per account: when its newest finished run ended (Unix time), labelled with that run's kind and status.",
    labelNames: ["account", "kind", "status"],
    registers,
    collect: async () => {
      lastRun.reset();
      for (const a of (await read())?.accounts ?? []) {
        const r = a.lastRun;
        if (r?.finishedAt)
          lastRun.set({ account: a.account, kind: r.kind, status: r.status }, r.finishedAt.getTime() / 1000);
      }
    },
  });
  const behind = new Gauge({
    name: "regwatch_coverage_behind_days",
    help: "Per account: days from its coverage end (every live list covered up to it) to the last complete day.",
    labelNames: ["account"],
    registers,
    collect: async () => {
      behind.reset();
      for (const a of (await read())?.accounts ?? [])
        if (a.daysBehind !== null) behind.set({ account: a.account }, a.daysBehind);
    },
  });
  const jobs = new Gauge({
    name: "regwatch_jobs",
    help: "Per account: its jobs in the queue by state (queued, running, failed for good).",
    labelNames: ["account", "state"],
    registers,
    collect: async () => {
      jobs.reset();
      for (const a of (await read())?.accounts ?? []) {
        jobs.set({ account: a.account, state: "queued" }, a.jobs.queued);
        jobs.set({ account: a.account, state: "running" }, a.jobs.running);
        jobs.set({ account: a.account, state: "failed" }, a.jobs.failed);
      }
    },
  });
  const alive = new Gauge({
    name: "regwatch_worker_alive",
    help: "Per queue worker seen in the last day: 1 while its heartbeat is within REGWATCH_JOB_LEASE_S.",
    labelNames: ["worker", "host"],
    registers,
    collect: async () => {
      alive.reset();
      for (const w of (await read())?.workers ?? [])
        alive.set({ worker: w.id, host: w.host }, w.alive ? 1 : 0);
    },
  });
}
