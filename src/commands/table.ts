/**
 * Every command of the CLI with its one-line summary and a loader for its module, so the CLI can
 * list all of them while importing only the one that runs.
 */
import type { Command } from "commander";

type Register = (program: Command) => void;

export interface CommandEntry {
  name: string;
  /** Shown in the overview; the same text as the command's own description (a test checks it). */
  summary: string;
  load: () => Promise<Register>;
}

export const COMMANDS: readonly CommandEntry[] = [
  {
    name: "migrate",
    summary: "apply pending database migrations (running it again is harmless)",
    load: async () => (await import("./migrate.ts")).registerMigrate,
  },
  {
    name: "sync",
    summary:
      "one incremental pass: refresh lists, fill coverage gaps up to the last complete day, fetch pending change files",
    load: async () => (await import("./sync.ts")).registerSync,
  },
  {
    name: "backfill",
    summary: "cover a date range in windows of at most 7 days; a rerun continues where the last one stopped",
    load: async () => (await import("./sync.ts")).registerBackfill,
  },
  {
    name: "reconcile",
    summary: "make the remote watch lists named in desired_lists match desired_items",
    load: async () => (await import("./reconcile.ts")).registerReconcile,
  },
  {
    name: "lookup",
    summary:
      "search the registry by registration number, name or bank account; results are kept in businesses",
    load: async () => (await import("./lookup.ts")).registerLookup,
  },
  {
    name: "watch",
    summary: "manage what should be watched (desired_items); run `regwatch reconcile` to apply",
    load: async () => (await import("./watch.ts")).registerWatch,
  },
  {
    name: "grant-reader",
    summary:
      "give an existing role read-only access to the data of schema regwatch (never sign-in data or alert targets)",
    load: async () => (await import("./grant-reader.ts")).registerGrantReader,
  },
  {
    name: "emulator",
    summary: "run the bundled registry emulator (search v1, watch v2, change files) until stopped",
    load: async () => (await import("./emulator.ts")).registerEmulator,
  },
  {
    name: "daemon",
    summary:
      "run reconcile and sync on REGWATCH_SCHEDULE, catch up missed runs, serve /healthz /readyz /metrics",
    load: async () => (await import("./daemon.ts")).registerDaemon,
  },
  {
    name: "worker",
    summary:
      "run the fleet's queued jobs (sync, backfill, reconcile, deliver) for every account until stopped",
    load: async () => (await import("./worker.ts")).registerWorker,
  },
  {
    name: "enqueue",
    summary: "queue sync, backfill, reconcile or deliver jobs for accounts of the fleet; workers run them",
    load: async () => (await import("./enqueue.ts")).registerEnqueue,
  },
  {
    name: "status",
    summary:
      "coverage per list, last runs, change files, item outcomes and API usage (reads the database only)",
    load: async () => (await import("./status-command.ts")).registerStatus,
  },
  {
    name: "changes",
    summary: "what changed: one line per changed heading, old → new, newest first (reads the database only)",
    load: async () => (await import("./changes.ts")).registerChanges,
  },
  {
    name: "reparse",
    summary: "parse stored change files again with today's parsers (sends no request)",
    load: async () => (await import("./reparse.ts")).registerReparse,
  },
  {
    name: "retention",
    summary:
      "remove or pseudonymise personal data older than the retention policy (--dry-run: only count it)",
    load: async () => (await import("./retention.ts")).registerRetention,
  },
  {
    name: "coverage",
    summary: "operator decisions about covered days",
    load: async () => (await import("./coverage.ts")).registerCoverage,
  },
  {
    name: "alerts",
    summary: "alert rules, the alert lifecycle, and delivery of alert messages",
    load: async () => (await import("./alerts.ts")).registerAlerts,
  },
  {
    name: "payments",
    summary: "check payments against the registry",
    load: async () => (await import("./payments.ts")).registerPayments,
  },
  {
    name: "web",
    summary: "serve the web console: alert inbox, businesses, changes, payments, coverage, runs, lists",
    load: async () => (await import("./web.ts")).registerWeb,
  },
  {
    name: "users",
    summary:
      "people who may sign in to the web console (regwatch web): add, list, passwd, set-locale, remove, grant, revoke",
    load: async () => (await import("./users.ts")).registerUsers,
  },
  {
    name: "db",
    summary: "the database in use: print its URL, or keep the embedded server up for BI tools (start, stop)",
    load: async () => (await import("./db.ts")).registerDb,
  },
  {
    name: "doctor",
    summary:
      "check a setup before the first run: configuration, database, keys, clock, description, schedule, file origins, alert targets",
    load: async () => (await import("./doctor.ts")).registerDoctor,
  },
  {
    name: "demo",
    summary:
      "embedded Postgres + the bundled emulator + a sample desired state: reconcile, backfill, sync, status",
    load: async () => (await import("./demo.ts")).registerDemo,
  },
];
