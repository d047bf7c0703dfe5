import type { Command } from "commander";
import { UsageError } from "../errors.ts";
import { parseDateArg, runAction } from "./context.ts";
import { addRunOptions, syncCommand } from "./sync-command.ts";

interface BackfillFlags {
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
    }),
  );
}
