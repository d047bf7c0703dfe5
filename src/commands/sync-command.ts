/**
 * What `sync` and `backfill` share: take the run lock, run the job with progress and a clean
 * stop on SIGINT/SIGTERM (in-flight windows commit, the run ends partial), print a summary.
 */

import { setMaxListeners } from "node:events";
import type { Command } from "commander";
import { requireWatch } from "../config.ts";
import { acquireRunLock } from "../db/lock.ts";
import { EXIT, type ExitCode } from "../errors.ts";
import { redactJson, redactSecrets } from "../secrets.ts";
import { runSyncJob } from "../sync/sync-job.ts";
import type { SyncPassOptions, SyncReport } from "../sync/sync-pass.ts";
import { type Context, collect, parseNonNegativeInt, withDatabase } from "./context.ts";
import { commandLog } from "./log-router.ts";
import { createProgressView } from "./progress-view.ts";

/** Options sync and backfill share. */
export function addRunOptions(command: Command): Command {
  return command
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
): Promise<ExitCode> {
  requireWatch(ctx.config);
  return withDatabase(ctx, async (db) => {
    const lock = await acquireRunLock(db.sql, { waitSeconds: cli.wait ?? 0 });
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
    try {
      const result = await runSyncJob(
        {
          sql: db.sql,
          config: ctx.config,
          log: ctx.log,
          trigger: "cli",
          progress,
          signal: controller.signal,
          lock,
        },
        pass,
      );
      progress?.stop();
      if (result.error && !result.report) {
        if (cli.json)
          process.stdout.write(
            `${JSON.stringify({ runId: result.runId, status: "failed", error: redactSecrets(result.error.message) })}\n`,
          );
        throw result.error;
      }
      const report = redactJson(result.report!);
      if (cli.json) process.stdout.write(`${JSON.stringify({ runId: result.runId, ...report }, null, 2)}\n`);
      else process.stdout.write(summary(pass.kind, result.runId, report));
      const code = report.status === "ok" ? EXIT.ok : EXIT.partial;
      // A request abandoned by the stop may hold a socket open: the process ends anyway.
      if (report.stopped) setTimeout(() => process.exit(code), 2000).unref();
      return code;
    } finally {
      progress?.stop();
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      await lock.release();
    }
  });
}

function summary(kind: string, runId: number, r: SyncReport): string {
  const lines = [
    `${kind} run ${runId}: ${r.status}${r.stopped ? " (stopped on request)" : ""}`,
    `  lists ${r.lists}; last complete day ${r.lastComplete}`,
    `  windows ${r.windowsDone}/${r.windowsPlanned} done, ${r.windowsFailed} failed, ${r.windowsSkipped} not started; ${r.changeRequests} change requests`,
    `  changes written ${r.changesWritten}`,
    `  files fetched ${r.filesFetched}, failed ${r.filesFailed}, refused ${r.filesRefused}, not started ${r.filesSkipped}`,
  ];
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
  return `${lines.join("\n")}\n`;
}
