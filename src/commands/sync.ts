/**
 * `regwatch sync` and `regwatch backfill`. What they share: open the registry clients, run the
 * job (which takes the run lock) with progress and a clean stop on SIGINT/SIGTERM (in-flight
 * windows commit, the run ends partial), print a summary. The exit status comes from the job's
 * outcome (see exitCodeOf).
 */
import { setMaxListeners } from "node:events";
import type { Command } from "commander";
import type { DeliveryReport } from "../alerts/deliver.ts";
import { scanCounts } from "../alerts/sql/raise.ts";
import { requireWatch } from "../config.ts";
import { exitCodeOf, type Outcome, UsageError } from "../errors.ts";
import { terminalSafe } from "../formats/terminal-text.ts";
import { runSyncJob, type SyncJobResult } from "../jobs/sync-job.ts";
import { openRegistry } from "../run/open-registry.ts";
import { preferSmallHeap } from "../run/small-heap.ts";
import { redactJson, redactSecrets } from "../secrets.ts";
import type { SyncPassOptions, SyncReport } from "../sync/sync-pass.ts";
import { type AccountFlag, accountOption } from "./account-option.ts";
import { collect, parseDateArg, parseNonNegativeInt } from "./arg-parsers.ts";
import { type Context, runAction, withDatabase } from "./context.ts";
import { commandLog } from "./log-router.ts";
import { createProgressView } from "./progress-view.ts";

export function registerSync(program: Command): void {
  const command = program
    .command("sync")
    .description(
      "one incremental pass: refresh lists, fill coverage gaps up to the last complete day, fetch pending change files",
    );
  addRunOptions(command).action((opts: { list: string[]; wait?: number; json?: boolean } & AccountFlag) =>
    runAction(
      (ctx) => syncCommand(ctx, { kind: "sync", lists: opts.list }, { wait: opts.wait, json: opts.json }),
      opts,
    ),
  );
}

interface BackfillFlags extends AccountFlag {
  from: string;
  to?: string;
  list: string[];
  refetch?: boolean;
  alertHistory?: boolean;
  wait?: number;
  json?: boolean;
}

export function registerBackfill(program: Command): void {
  const command = program
    .command("backfill")
    .description(
      "cover a date range in windows of at most 7 days; a rerun continues where the last one stopped",
    )
    .requiredOption("--from <date>", "first day to cover (YYYY-MM-DD)", parseDateArg)
    .option("--to <date>", "last day to cover (default: the last complete day)", parseDateArg)
    .option("--refetch", "ask again for days already covered")
    .option("--alert-history", "raise alerts for the changes this backfill stores first (none by default)");
  addRunOptions(command).action((opts: BackfillFlags) =>
    runAction(async (ctx) => {
      if (opts.to && opts.to < opts.from)
        throw new UsageError(`--to ${opts.to} is before --from ${opts.from}`);
      return syncCommand(
        ctx,
        {
          kind: "backfill",
          from: opts.from,
          to: opts.to,
          lists: opts.list,
          refetch: Boolean(opts.refetch),
          alertHistory: Boolean(opts.alertHistory),
        },
        { wait: opts.wait, json: opts.json },
      );
    }, opts),
  );
}

/** Options sync and backfill share. */
export function addRunOptions(command: Command): Command {
  return command
    .addOption(accountOption())
    .option("--list <list>", "limit the pass to this list, by key or name (repeatable)", collect, [])
    .option(
      "--wait <seconds>",
      "wait this long for another run to finish instead of exiting 75",
      parseNonNegativeInt,
    )
    .option("--json", "print the report as JSON")
    .addHelpText(
      "after",
      "\nExit: 0 all done, 1 failed, 3 partial (what failed stays pending), 75 another run holds the lock.",
    );
}

export interface SyncCliOptions {
  wait?: number;
  json?: boolean;
}

export async function syncCommand(
  ctx: Context,
  pass: SyncPassOptions,
  cli: SyncCliOptions,
): Promise<Outcome> {
  const { config, log } = ctx;
  requireWatch(config);
  preferSmallHeap();
  return withDatabase(ctx, async (db) => {
    const controller = new AbortController();
    setMaxListeners(0, controller.signal); // every window, file and request in flight listens to it
    const stop = (signal: NodeJS.Signals) => {
      if (controller.signal.aborted) return;
      commandLog.write(`regwatch: ${signal} received; finishing requests in flight, then stopping\n`);
      controller.abort();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
    const progress = cli.json ? undefined : createProgressView(process.stderr, 5000, commandLog);
    const registry = openRegistry(config, log, db.sql, {
      signal: controller.signal,
      onRequest: (r) => progress?.request(r.status !== undefined),
      onRetry: (info) =>
        progress?.retrying?.({
          attempt: info.attempt + 1,
          maxAttempts: info.maxAttempts,
          delayMs: info.delayMs,
        }),
    });
    try {
      const result = await runSyncJob(
        {
          sql: db.sql,
          config,
          log,
          trigger: "cli",
          progress,
          signal: controller.signal,
          registry,
          waitSeconds: cli.wait ?? 0,
        },
        pass,
      );
      progress?.stop();
      // The run's scan (its alerts and their queued messages) is committed by the time the job
      // returns; a stopped or failed one leaves it to the next delivery pass.
      const alerts = result.runId ? ((await scanCounts(db.sql, result.runId)) ?? null) : null;
      printReport(pass.kind, result, alerts, cli.json);
      // A request abandoned by the stop may hold a socket open: the process ends anyway.
      if (result.report.stopped) setTimeout(() => process.exit(exitCodeOf(result)), 2000).unref();
      return result;
    } finally {
      progress?.stop();
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      // After a stop, a request may still hang in a client: the wait for it is bounded.
      await registry.close(controller.signal.aborted ? { boundMs: 1000 } : {});
    }
  });
}

/** The summary or the JSON report; a failure's own message goes to stderr once, through runAction. */
type AlertCounts = { raised: number; queued: number } | null;

function printReport(
  kind: string,
  result: SyncJobResult,
  alerts: AlertCounts,
  json: boolean | undefined,
): void {
  if (result.error) {
    if (json)
      process.stdout.write(
        `${JSON.stringify({ runId: result.runId, status: "failed", error: redactSecrets(result.error.message) })}\n`,
      );
    return;
  }
  const report = redactJson(result.report);
  const delivery = result.delivery ? redactJson(result.delivery) : null;
  if (json)
    process.stdout.write(
      `${JSON.stringify({ runId: result.runId, ...report, alerts, delivery }, null, 2)}\n`,
    );
  else process.stdout.write(summary(kind, result.runId, report, alerts) + deliveryNote(delivery));
}

/** The run's own work is done whatever delivery does; a delivery that failed is said, not hidden. */
function deliveryNote(delivery: DeliveryReport | null): string {
  if (delivery?.error === undefined) return "";
  const charged =
    delivery.unexpected > 0 ? `; ${delivery.unexpected} message(s) charged a failed attempt` : "";
  return `${terminalSafe(`  alert delivery failed: ${delivery.error}${charged} (\`regwatch status\` shows it)`)}\n`;
}

function summary(kind: string, runId: number, r: SyncReport, alerts: AlertCounts): string {
  const lines = [
    `${kind} run ${runId}: ${r.status}${r.stopped ? " (stopped on request)" : ""}`,
    `  lists ${r.lists}; last complete day ${r.lastComplete}`,
    `  windows ${r.windowsDone}/${r.windowsPlanned} done, ${r.windowsFailed} failed, ${r.windowsSkipped} not started; ${r.changeRequests} change requests`,
    `  changes written ${r.changesWritten}`,
    alerts
      ? `  alerts raised ${alerts.raised}, messages queued ${alerts.queued}`
      : "  alerts not raised yet (the next delivery pass raises them: `regwatch alerts deliver` or the daemon)",
    `  files fetched ${r.filesFetched}, failed ${r.filesFailed}, refused ${r.filesRefused}, not started ${r.filesSkipped}`,
  ];
  if (r.filesFailedForGood > 0)
    lines.push(
      `  files failed for good ${r.filesFailedForGood}: the database refuses their body whatever the try; kept with the reason, listed by \`regwatch status\`, tried again only by \`regwatch reparse\` or \`backfill --refetch\``,
    );
  if (r.invalidItems > 0)
    lines.push(
      `  invalid items set aside ${r.invalidItems} (see \`regwatch status\`; their days stay uncovered)`,
    );
  for (const [list, d] of Object.entries(r.intervalDisagreements))
    lines.push(
      `  list ${list}: ${d.wider + d.narrower + d.elsewhere} answer(s) for other days than asked (${d.example}); check REGWATCH_CHANGES_END_INCLUSIVE`,
    );
  for (const note of r.notes ?? []) lines.push(`  note: ${note}`);
  if (r.errors.length > 0) lines.push("  problems:", ...r.errors.map((e) => `    ${e}`));
  if (r.status === "partial") lines.push("  what failed stays pending; the next sync picks it up");
  // List names, keys and server messages are the registry's text: shown, never obeyed, by the terminal.
  return `${lines.map(terminalSafe).join("\n")}\n`;
}
