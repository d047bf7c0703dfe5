import type { Command } from "commander";
import { collect, parseNonNegativeInt, runAction } from "./context.ts";
import { syncCommand } from "./sync-command.ts";

export function registerSync(program: Command): void {
  program
    .command("sync")
    .description(
      "one incremental pass: refresh lists, fill coverage gaps up to the last complete day, fetch pending change files",
    )
    .option("--list <key>", "limit the pass to this list key (repeatable)", collect, [])
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
    .action((opts: { list: string[]; wait?: number; json?: boolean }) =>
      runAction((ctx) =>
        syncCommand(ctx, { kind: "sync", lists: opts.list }, { wait: opts.wait, json: opts.json }),
      ),
    );
}
