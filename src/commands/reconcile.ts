import type { Command } from "commander";
import { requireWatch } from "../config.ts";
import type { Outcome } from "../errors.ts";
import { terminalSafe } from "../formats/terminal-text.ts";
import { DEFAULT_MAX_REMOVALS, reconcile } from "../reconcile/reconcile.ts";
import { formatReport, reportJson } from "../reconcile/report.ts";
import { openRegistry } from "../run/open-registry.ts";
import { type AccountFlag, accountOption } from "./account-option.ts";
import { parseNonNegativeInt } from "./arg-parsers.ts";
import { type Context, runAction, withDatabase } from "./context.ts";

interface ReconcileCliOptions extends AccountFlag {
  dryRun?: boolean;
  maxRemovals: number;
  allowEmpty?: boolean;
  allowDeleteLists?: boolean;
  retryRefused?: boolean;
  acceptEmptyRemote?: boolean;
  json?: boolean;
  wait?: number;
}

export function registerReconcile(program: Command): void {
  program
    .command("reconcile")
    .addOption(accountOption())
    .description("make the remote watch lists named in desired_lists match desired_items")
    .option("--dry-run", "read the registry and print the plan; send no change and record no outcome")
    .option(
      "--max-removals <n>",
      "refuse a plan that removes more items than this in total",
      parseNonNegativeInt,
      DEFAULT_MAX_REMOVALS,
    )
    .option("--allow-empty", "allow removing every item of a list (refused otherwise)")
    .option(
      "--allow-delete-lists",
      "delete the remote lists of desired lists dropped with `watch drop-list` (their items count toward --max-removals)",
    )
    .option(
      "--retry-refused",
      "resend tax ids the registry refused in the last 12 hours (404/422 adds, 409 removals)",
    )
    .option(
      "--accept-empty-remote",
      "trust an answer with no watch lists although lists were known (refused as suspect otherwise)",
    )
    .option("--json", "print the report as JSON")
    .option(
      "--wait <seconds>",
      "wait this long for another run to finish instead of exiting 75",
      parseNonNegativeInt,
    )
    .addHelpText(
      "after",
      [
        "",
        "Only lists whose name is in desired_lists are touched; items are removed only where prune is true,",
        "and only items regwatch itself asked for: one added at the registry by hand is reported, never removed.",
        "A desired list whose remote list exists but was never managed first adopts the items on it into",
        "desired_items (source adopted); --dry-run shows what it would adopt.",
        "A desired_lists or desired_items row the `watch` commands would refuse (a control character, blanks",
        "around a list name, digits other than 0-9) is refused and named, and nothing is sent for it; a refused",
        "list makes the run partial (exit 3), a refused item is recorded in item_outcomes as 422.",
        "A list dropped with `regwatch watch drop-list` is deleted remotely only with --allow-delete-lists;",
        "otherwise it is left in place. Lists regwatch never managed are never deleted.",
        "Invalid tax ids and items beyond a list's 2000-item limit are recorded in item_outcomes, never sent.",
        "",
        "Exit: 0 in sync or applied, 1 failed or refused by a guard, 2 (--dry-run) changes pending,",
        "3 partial (some requests failed; rerun to finish), 75 another run holds the lock.",
      ].join("\n"),
    )
    .action((opts: ReconcileCliOptions) => runAction((ctx) => reconcileCommand(ctx, opts), opts));
}

async function reconcileCommand(ctx: Context, opts: ReconcileCliOptions): Promise<Outcome> {
  const { config, log } = ctx;
  requireWatch(config);
  return withDatabase(ctx, async (db) => {
    const registry = openRegistry(config, log, db.sql);
    try {
      const report = await reconcile(
        { config, log, db, registry: registry.clients, usage: registry.usage, waitSeconds: opts.wait ?? 0 },
        {
          dryRun: opts.dryRun,
          maxRemovals: opts.maxRemovals,
          allowEmpty: opts.allowEmpty,
          allowDeleteLists: opts.allowDeleteLists,
          retryRefused: opts.retryRefused,
          acceptEmptyRemote: opts.acceptEmptyRemote,
          trigger: "cli",
        },
      );
      // A failure outside the registry's answers is said once, by runAction.
      if (report.failure) return { status: "failed", error: report.failure };
      // Each problem is said once: on stderr for a person, in the JSON for a pipeline.
      process.stdout.write(opts.json ? reportJson(report) : formatReport(report, { problems: false }));
      if (!opts.json) {
        for (const problem of report.problems)
          process.stderr.write(`regwatch: reconcile ${report.status}: ${terminalSafe(problem)}\n`);
      }
      return report;
    } finally {
      await registry.close();
    }
  });
}
