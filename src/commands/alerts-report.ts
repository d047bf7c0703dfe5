/**
 * `regwatch alerts report ID --pdf FILE [--lang hu|en]`: an alert's decision history (who
 * acknowledged, assigned, snoozed, commented, resolved, and when) as a PDF, as the alert page
 * downloads it. Exit 0 written, 1 no such alert, 64 bad arguments.
 */
import type { Command } from "commander";
import { alertHistoryPdf } from "../alerts/history-pdf.ts";
import { EXIT, RegwatchError, UsageError } from "../errors.ts";
import { terminalSafe } from "../formats/terminal-text.ts";
import { packageVersion } from "../version.ts";
import { type AccountFlag, accountOption } from "./account-option.ts";
import { runAction, withDatabase } from "./context.ts";
import { checkPdfTarget, langOption, reportLocale, writeReportFile } from "./report-file.ts";

export function registerAlertsReport(alerts: Command): void {
  alerts
    .command("report <id>")
    .addOption(accountOption())
    .description("write an alert's decision history as PDF (exit 0, 1 no such alert, 64 bad arguments)")
    .option("--pdf <file>", "where to write the PDF")
    .addOption(langOption())
    .action((raw: string, options: { pdf?: string; lang?: string } & AccountFlag) =>
      runAction(async (ctx) => {
        const file = await checkPdfTarget(options.pdf);
        if (!/^\d{1,15}$/.test(raw))
          throw new UsageError(`alert id "${terminalSafe(raw)}" is not a whole number`);
        const pdf = await withDatabase(ctx, (db) =>
          alertHistoryPdf(db.sql, Number(raw), {
            locale: reportLocale(options.lang, ctx.config.locale),
            timeZone: ctx.config.tz,
            madeAt: new Date(),
            version: packageVersion(),
          }),
        );
        if (!pdf) throw new RegwatchError("NOT_FOUND", `no alert with id ${raw}`);
        await writeReportFile(file, pdf);
        process.stderr.write(`decision history written to ${terminalSafe(file)}\n`);
        return EXIT.ok;
      }, options),
    );
}
