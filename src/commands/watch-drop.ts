/**
 * `regwatch watch drop-list LIST`: the desired list and its desired items go. Its remote list
 * stays until a reconcile run with --allow-delete-lists deletes it; dropped_lists keeps the fact
 * that the list was regwatch's, so no list regwatch never managed can be deleted that way.
 */
import type { Command } from "commander";
import { dropDesiredList } from "../db/dropped-lists.ts";
import { EXIT, InputError } from "../errors.ts";
import { runAction, withDatabase } from "./context.ts";
import { listLabel, namedList } from "./list-arg.ts";

export function registerDropList(watch: Command): void {
  watch
    .command("drop-list")
    .description(
      "remove a desired list and its items; reconcile --allow-delete-lists deletes its remote list",
    )
    .argument("<list>", "desired list, by name or by the key of its remote list")
    .action((ref: string) =>
      runAction((ctx) =>
        withDatabase(ctx, async (db) => {
          const list = await namedList(db.sql, ref.trim());
          const dropped = await dropDesiredList(db.sql, list.name, list.key);
          if (!dropped)
            throw new InputError(`there is no desired list ${listLabel(list)} (see regwatch watch list)`);
          process.stdout.write(
            `list ${listLabel(list)} dropped with its ${dropped.items} desired item(s). ` +
              (list.key
                ? "The next `regwatch reconcile --allow-delete-lists` deletes the remote list; a reconcile without it leaves the list in place.\n"
                : "No remote list of that name is known; reconcile --allow-delete-lists deletes one if it appears.\n"),
          );
          return EXIT.ok;
        }),
      ),
    );
}
