import type { Command } from "commander";
import { UsageError } from "../errors.ts";
import { collect, parseDateArg, parseNonNegativeInt, runAction } from "./context.ts";
import { syncCommand } from "./sync-command.ts";

export function registerBackfill(program: Command): void {
  program
    .command("backfill")
    .description(
      "cover a date range in windows of at most 7 days; a rerun continues where the last one stopped",
    )
    .requiredOption("--from <date>", "first day to cover (YYYY-MM-DD)", parseDateArg)
    .option("--to <date>", "last day to cover (default: the last complete day)", parseDateArg)
    .option("--list <key>", "limit to this list key (repeatable)", collect, [])
    .option("--refetch", "ask again for days already covered")
    .option(
      "--wait <seconds>",
      "wait this long for another run to finish instead of exiting 75",
      parseNonNegativeInt,
    )
    .option("--json", "print the report as JSON")
    .addHelpText(
      "after",
      "\nExit: 0 all done, 1 failed, 3 partial (what failed stays pending), 75 another run holds the lock.",
    )
    .action(
      (opts: {
        from: string;
        to?: string;
        list: string[];
        refetch?: boolean;
        wait?: number;
        json?: boolean;
      }) =>
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
            },
            { wait: opts.wait, json: opts.json },
          );
        }),
    );
}
