import type { Command } from "commander";
import { runAction } from "./context.ts";
import { addRunOptions, syncCommand } from "./sync-command.ts";

export function registerSync(program: Command): void {
  const command = program
    .command("sync")
    .description(
      "one incremental pass: refresh lists, fill coverage gaps up to the last complete day, fetch pending change files",
    );
  addRunOptions(command).action((opts: { list: string[]; wait?: number; json?: boolean }) =>
    runAction((ctx) =>
      syncCommand(ctx, { kind: "sync", lists: opts.list }, { wait: opts.wait, json: opts.json }),
    ),
  );
}
