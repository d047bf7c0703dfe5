/**
 * `regwatch reparse [--all]`: parses stored change-file bodies again with today's parsers. Reads
 * the database only; no request reaches the registry, so a new parser fixes history for free.
 * The profiles of every business whose values it rewrites are rebuilt from the values.
 */
import type { Command } from "commander";
import { lastCompleteDay } from "../dates.ts";
import { EXIT } from "../errors.ts";
import { parseStoredFiles } from "../parse/parse-files.ts";
import { retrySettledFiles } from "../sync/settled-retry.ts";
import { type AccountFlag, accountOption } from "./account-option.ts";
import { runAction, withDatabase } from "./context.ts";

export function registerReparse(program: Command): void {
  program
    .command("reparse")
    .addOption(accountOption())
    .description("parse stored change files again with today's parsers (sends no request)")
    .option(
      "--all",
      "every fetched file, not only those not parsed yet, unrecognised, unattributed or failed",
    )
    .option("--json", "print the counts as JSON")
    .action((opts: { all?: boolean; json?: boolean } & AccountFlag) =>
      runAction(
        (ctx) =>
          withDatabase(ctx, async (db) => {
            // Files failed for good first: a kept body today's rules take is parsed below.
            const settled = await retrySettledFiles(db.sql);
            const report = await parseStoredFiles(db.sql, {
              selection: opts.all ? "all" : "retry",
              lastComplete: lastCompleteDay(new Date(), ctx.config.registryTz),
              registryTz: ctx.config.registryTz,
            });
            process.stdout.write(
              opts.json
                ? `${JSON.stringify({ ...report, failedForGood: settled })}\n`
                : `Re-parsed ${report.files} change files: ${report.parsed} parsed (${report.values} heading values), ${report.unrecognised} unrecognised, ${report.unattributed} unattributed, ${report.failed} failed\n${settledLine(settled)}`,
            );
            return EXIT.ok;
          }),
        opts,
      ),
    );
}

/** What became of the files failed for good, when there were any. */
function settledLine(settled: { stored: number; still: number }): string {
  if (settled.stored + settled.still === 0) return "";
  return `Files failed for good tried again from their kept bytes: ${settled.stored} stored and parsed above, ${settled.still} still failed for good (\`regwatch status\` says why)\n`;
}
