/**
 * The daemon's Prometheus metrics. Counters of this process (requests, changes written, rate-
 * limiter waits) are updated as things happen; what the database knows (runs, files, coverage)
 * is read when Prometheus scrapes, in one batch of small queries shared by every gauge and kept
 * for a few seconds, so frequent scrapes cost the database little.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { RequestResult } from "../api/http.ts";
import type { RateLimiter } from "../api/rate-limiter.ts";
import { daysBetween, lastCompleteDay } from "../dates.ts";
import type { Sql } from "../db/connect.ts";
import { withAccountSchema } from "../fleet/sql/status.ts";
import { fileCounts, lastCoveredDays, lastSuccessByKind, runCounts } from "../status/sql/status.ts";
import { packageVersion } from "../version.ts";

const SNAPSHOT_TTL_MS = 2000;
/** Coverage is kept in whole days; the lag is reported in the base unit Prometheus expects. */
const SECONDS_PER_DAY = 86_400;

interface DatabaseSnapshot {
  /** The account the figures are of (fleet mode); undefined for a plain install. */
  account?: string;
  runs: Awaited<ReturnType<typeof runCounts>>;
  lastSuccess: Awaited<ReturnType<typeof lastSuccessByKind>>;
  files: Record<string, number>;
  covered: Awaited<ReturnType<typeof lastCoveredDays>>;
}

export interface MetricsOptions {
  /** A connection for scrape-time reads; failures leave the database gauges empty. */
  probe: () => Promise<Sql | undefined>;
  /** The registry's zone (REGWATCH_REGISTRY_TZ): the calendar of its days, the coverage lag's. */
  registryTz: string;
  /** Rate limiters of the registry clients in use, by origin. */
  limiters: () => Map<string, RateLimiter>;
  /**
   * Fleet mode: the accounts whose schemas are read (each in its own, see withAccountSchema), and
   * every database gauge carries an `account` label. Without it, the one schema of the probe.
   */
  accounts?: readonly { name: string; schema: string }[];
  now?: () => Date;
}

export class DaemonMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<"api" | "endpoint" | "status">;
  private readonly changesWritten: Counter;
  private readonly jobRunning: Gauge;
  private readonly runDuration: Histogram<"kind" | "status">;
  private readonly resumeExhausted: Gauge;
  private readonly nextAttempt: Gauge;
  private readonly waitedSeen = new Map<string, number>();
  private snapshot: { at: number; value: Promise<DatabaseSnapshot[] | undefined> } | undefined;

  constructor(private readonly options: MetricsOptions) {
    const registers = [this.registry];
    const now = options.now ?? (() => new Date());
    // In fleet mode every figure read from the database names its account.
    const byAccount = options.accounts ? ["account" as const] : [];
    const label = (s: DatabaseSnapshot) => (s.account === undefined ? {} : { account: s.account });
    // The standard names (process_*, nodejs_*), so stock dashboards and alerts work unchanged.
    collectDefaultMetrics({ register: this.registry });
    new Gauge({
      name: "regwatch_build_info",
      help: "Always 1; the version label names the regwatch release running.",
      labelNames: ["version"],
      registers,
    }).set({ version: packageVersion() }, 1);
    this.runDuration = new Histogram({
      name: "regwatch_run_duration_seconds",
      help: "How long this daemon's reconcile and sync runs took, by kind and final status.",
      labelNames: ["kind", "status"],
      buckets: [1, 5, 15, 60, 300, 900, 1800, 3600, 7200, 14400],
      registers,
    });

    this.requests = new Counter({
      name: "regwatch_requests_total",
      help: "Requests to the registry by interface, endpoint and HTTP status (error when none came back).",
      labelNames: ["api", "endpoint", "status"],
      registers,
    });
    this.changesWritten = new Counter({
      name: "regwatch_changes_written_total",
      help: "Change rows written by this daemon's sync runs.",
      registers,
    });
    this.jobRunning = new Gauge({
      name: "regwatch_job_running",
      help: "1 while this daemon runs a reconcile and sync job.",
      registers,
    });

    this.resumeExhausted = new Gauge({
      name: "regwatch_resume_exhausted",
      help: "1 when the attempts for the latest scheduled run ran out with windows uncovered; the next schedule takes over.",
      registers,
    });
    this.nextAttempt = new Gauge({
      name: "regwatch_next_attempt_timestamp_seconds",
      help: "When an incomplete run of the latest slot is retried (0 when none is waiting).",
      registers,
    });
    const limiterWaiting = new Gauge({
      name: "regwatch_rate_limiter_waiting",
      help: "Requests waiting for their turn under the rate limit, by origin.",
      labelNames: ["origin"],
      registers,
      collect: () => {
        limiterWaiting.reset();
        for (const [origin, limiter] of options.limiters())
          limiterWaiting.set({ origin }, limiter.stats().waiting);
      },
    });
    const limiterWaited = new Counter({
      name: "regwatch_rate_limiter_waited_seconds_total",
      help: "Time requests spent waiting for the rate limit, by origin.",
      labelNames: ["origin"],
      registers,
      collect: () => {
        for (const [origin, limiter] of options.limiters()) {
          const waitedMs = limiter.stats().waitedMs;
          const delta = waitedMs - (this.waitedSeen.get(origin) ?? 0);
          if (delta > 0) limiterWaited.inc({ origin }, delta / 1000);
          this.waitedSeen.set(origin, waitedMs);
        }
      },
    });

    const databaseUp: Gauge = new Gauge({
      name: "regwatch_database_up",
      help: "1 when the last scrape could read the database.",
      registers,
      collect: async () => {
        databaseUp.set((await this.read()) ? 1 : 0);
      },
    });
    const runs = new Gauge({
      name: "regwatch_runs",
      help: "Runs recorded in the database, by kind and status.",
      labelNames: [...byAccount, "kind", "status"],
      registers,
      collect: async () => {
        runs.reset();
        for (const s of (await this.read()) ?? [])
          for (const r of s.runs) runs.set({ ...label(s), kind: r.kind, status: r.status }, r.count);
      },
    });
    const lastSuccess = new Gauge({
      name: "regwatch_last_success_timestamp_seconds",
      help: "When the newest run of each kind that ended ok or partial finished (Unix time).",
      labelNames: [...byAccount, "kind"],
      registers,
      collect: async () => {
        lastSuccess.reset();
        for (const s of (await this.read()) ?? [])
          for (const r of s.lastSuccess)
            lastSuccess.set({ ...label(s), kind: r.kind }, r.finishedAt.getTime() / 1000);
      },
    });
    const files = new Gauge({
      name: "regwatch_change_files",
      help: "Change files by status: pending, fetched, failed (to be retried), failed_for_good, refused.",
      labelNames: [...byAccount, "status"],
      registers,
      collect: async () => {
        files.reset();
        for (const s of (await this.read()) ?? [])
          for (const [status, count] of Object.entries(s.files))
            files.set(
              { ...label(s), status: status === "failedForGood" ? "failed_for_good" : status },
              count,
            );
      },
    });
    const lag = new Gauge({
      name: "regwatch_coverage_lag_seconds",
      help: "Per list: time from the end of its last covered day to the end of the last complete day (0 when up to date).",
      labelNames: [...byAccount, "list_key", "list_name"],
      registers,
      collect: async () => {
        lag.reset();
        const complete = lastCompleteDay(now(), options.registryTz);
        for (const s of (await this.read()) ?? []) {
          for (const l of s.covered) {
            if (l.lastCovered === null) continue;
            lag.set(
              { ...label(s), list_key: l.listKey, list_name: l.listName },
              Math.max(0, daysBetween(l.lastCovered, complete)) * SECONDS_PER_DAY,
            );
          }
        }
      },
    });
  }

  /** Passed to the registry clients as `onResult`. */
  recordRequest(result: RequestResult): void {
    this.requests.inc({
      api: result.api,
      endpoint: result.endpoint,
      status: result.status === undefined ? "error" : String(result.status),
    });
  }

  recordChangesWritten(count: number): void {
    if (count > 0) this.changesWritten.inc(count);
  }

  observeRun(kind: "reconcile" | "sync", status: string, seconds: number): void {
    this.runDuration.observe({ kind, status }, seconds);
  }

  /** What the last due check decided about resuming the latest slot. */
  setResume(decision: { reason: string; nextAt?: Date }): void {
    // Held after too many killed runs, the slot waits for the next schedule just as when exhausted.
    this.resumeExhausted.set(decision.reason === "exhausted" || decision.reason === "killed" ? 1 : 0);
    this.nextAttempt.set(decision.nextAt ? decision.nextAt.getTime() / 1000 : 0);
  }

  setJobRunning(running: boolean): void {
    this.jobRunning.set(running ? 1 : 0);
  }

  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  /** The database's part of the metrics, read once per scrape (or per few seconds). */
  private read(): Promise<DatabaseSnapshot[] | undefined> {
    const now = Date.now();
    if (!this.snapshot || now - this.snapshot.at > SNAPSHOT_TTL_MS) {
      this.snapshot = { at: now, value: this.query() };
    }
    return this.snapshot.value;
  }

  private async query(): Promise<DatabaseSnapshot[] | undefined> {
    try {
      const sql = await this.options.probe();
      if (!sql) return undefined;
      const { accounts } = this.options;
      if (!accounts) return [await readSnapshot(sql)];
      const snapshots: DatabaseSnapshot[] = [];
      // One account that cannot be read (not migrated yet, say) leaves only its own figures out.
      for (const a of accounts) {
        const s = await withAccountSchema(sql, a.schema, readSnapshot).catch(() => undefined);
        if (s) snapshots.push({ account: a.name, ...s });
      }
      return snapshots;
    } catch {
      return undefined;
    }
  }
}

async function readSnapshot(sql: Sql): Promise<DatabaseSnapshot> {
  const [runs, lastSuccess, files, covered] = await Promise.all([
    runCounts(sql),
    lastSuccessByKind(sql),
    fileCounts(sql),
    lastCoveredDays(sql),
  ]);
  return { runs, lastSuccess, files, covered };
}
