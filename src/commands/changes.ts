/**
 * `regwatch changes`: the feed of what changed at the watched businesses, one line per changed
 * heading, newest first. Reads the database only.
 */
import type { Command } from "commander";
import { feedCsv, feedLines } from "../changes/format.ts";
import { readFeed } from "../changes/sql/change-feed.ts";
import { addDays, localDateTime } from "../dates.ts";
import { EXIT, UsageError } from "../errors.ts";
import { resolveListRefs } from "../list-ref.ts";
import { loadWatchLists } from "../run/lists.ts";
import { redactSecrets } from "../secrets.ts";
import { foreignSaid, taxBaseOf } from "../taxid.ts";
import { type AccountFlag, accountOption } from "./account-option.ts";
import { collect, parseDateArg } from "./arg-parsers.ts";
import { runAction, withDatabase } from "./context.ts";

const DEFAULT_DAYS = 7;

interface ChangesOptions extends AccountFlag {
  since?: string;
  until?: string;
  list: string[];
  heading: string[];
  taxId?: string;
  json?: boolean;
  csv?: boolean;
}

export function registerChanges(program: Command): void {
  program
    .command("changes")
    .addOption(accountOption())
    .description(
      "what changed: one line per changed heading, old → new, newest first (reads the database only)",
    )
    .option("--since <date>", `first day (default ${DEFAULT_DAYS} days ago)`, parseDateArg)
    .option("--until <date>", "last day (default: no end)", parseDateArg)
    .option("--list <list>", "only changes reported by this list, by name or key (repeatable)", collect, [])
    .option("--heading <heading>", "only this heading, e.g. bank_accounts (repeatable)", collect, [])
    .option("--tax-id <id>", "only this business (tax base number, tax number or HU community tax number)")
    .option("--json", "print the rows as JSON, values whole")
    .option("--csv", "print the rows as CSV, values whole")
    .addHelpText("after", "\nExit: 0 (also when nothing changed), 64 bad input.")
    .action((opts: ChangesOptions) =>
      runAction(async (ctx) => {
        if (opts.json && opts.csv) throw new UsageError("--json and --csv exclude each other: pick one.");
        const taxId = opts.taxId === undefined ? null : taxBaseOf(opts.taxId);
        if (taxId === undefined) {
          throw new UsageError(
            foreignSaid(opts.taxId!)?.text ??
              `--tax-id "${opts.taxId}" is neither an 8-digit tax base number nor a tax number (xxxxxxxx-y-zz or HUxxxxxxxx).`,
          );
        }
        const since = opts.since ?? addDays(localDateTime(new Date(), ctx.config.tz).date, -DEFAULT_DAYS);
        if (opts.until !== undefined && opts.until < since) {
          throw new UsageError(`--until ${opts.until} is before --since ${since}.`);
        }
        const rows = await withDatabase(ctx, async (db) => {
          // The feed names lists; a key given with --list stands for its list's name.
          const lists = resolveListRefs(opts.list, await loadWatchLists(db.sql, { includeDeleted: true }));
          if (!lists.ok) throw new UsageError(lists.problem);
          return readFeed(db.sql, {
            since,
            until: opts.until ?? null,
            lists: [...new Set(lists.lists.map((l) => l.listName))],
            headings: opts.heading,
            taxId,
          });
        });
        let out: string;
        if (opts.json) out = `${JSON.stringify(rows, null, 2)}\n`;
        else if (opts.csv) out = feedCsv(rows, { terminal: process.stdout.isTTY === true });
        else if (rows.length === 0)
          out = `No changes since ${since}${opts.until ? ` until ${opts.until}` : ""}.\n`;
        else out = feedLines(rows, { shorten: process.stdout.isTTY === true });
        process.stdout.write(redactSecrets(out));
        return EXIT.ok;
      }, opts),
    );
}
