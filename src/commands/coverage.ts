/**
 * `regwatch coverage accept`: after an operator has looked at the invalid items of some days,
 * those days are marked covered with the reason given, so syncs stop asking for them.
 */
import type { Command } from "commander";
import { lastCompleteDay } from "../dates.ts";
import { EXIT, UsageError } from "../errors.ts";
import { terminalSafe } from "../formats/terminal-text.ts";
import {
  type AcceptRefusal,
  acceptCoverage,
  firstDayNotToAccept,
  resolveListKey,
} from "../sync/sql/coverage.ts";
import { type AccountFlag, accountOption } from "./account-option.ts";
import { parseDateArg } from "./arg-parsers.ts";
import { runAction, withDatabase } from "./context.ts";

export function registerCoverage(program: Command): void {
  const coverage = program.command("coverage").description("operator decisions about covered days");
  coverage
    .command("accept")
    .addOption(accountOption())
    .description("mark days covered whose answers held invalid items, after an operator's review")
    .argument("<list>", "list key or list name")
    .argument("<from>", "first day (YYYY-MM-DD)", parseDateArg)
    .argument("<to>", "last day (YYYY-MM-DD)", parseDateArg)
    .requiredOption("--reason <text>", "why these days may count as read (kept with the coverage row)")
    .addHelpText(
      "after",
      "\nOnly days the registry's answers left open can be accepted: days holding open invalid items, or not\n" +
        "covered at all, within the list's life and up to the last complete day.\n" +
        "Exit: 0 recorded, 64 bad input (unknown list, dates out of order, empty reason, a day that may not be accepted).",
    )
    .action((list: string, from: string, to: string, opts: { reason: string } & AccountFlag) =>
      runAction((ctx) => {
        const reason = opts.reason.trim();
        if (reason === "") throw new UsageError("--reason: give the reason these days may count as read");
        if (from > to) throw new UsageError(`FROM ${from} is after TO ${to}`);
        return withDatabase(ctx, async (db) => {
          const listKey = await resolveListKey(db.sql, list);
          if (!listKey)
            throw new UsageError(`list ${JSON.stringify(list)}: no such watch list (run sync first)`);
          const lastComplete = lastCompleteDay(new Date(), ctx.config.registryTz);
          const refused = await firstDayNotToAccept(db.sql, {
            listKey,
            start: from,
            end: to,
            lastComplete,
            registryTz: ctx.config.registryTz,
          });
          if (refused) throw new UsageError(refusalMessage(listKey, refused, lastComplete));
          const { closedItems } = await acceptCoverage(db.sql, { listKey, start: from, end: to, reason });
          process.stdout.write(
            `${terminalSafe(`list ${listKey}: ${from} .. ${to} marked covered (${reason}); ${closedItems} open invalid item(s) closed`)}\n`,
          );
          return EXIT.ok;
        });
      }, opts),
    );
}

function refusalMessage(listKey: string, refused: { day: string; why: AcceptRefusal }, lastComplete: string) {
  const why: Record<AcceptRefusal, string> = {
    before_list: "is before the list was created",
    after_list: "is after the list was deleted",
    covered: "is already covered by the registry's answers and holds no open invalid item: nothing to accept",
    not_complete: `is not complete yet (the last complete day is ${lastComplete})`,
  };
  return `list ${listKey}: ${refused.day} ${why[refused.why]}; nothing was marked covered`;
}
