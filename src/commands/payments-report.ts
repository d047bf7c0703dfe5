/**
 * `regwatch payments report BATCH --pdf FILE [--lang hu|en]`: a recorded batch's evidence report
 * (src/payments/evidence-report.ts) as a PDF. Exit 0 written, 1 no such batch, 64 bad arguments.
 */
import type { Command } from "commander";
import { EXIT, RegwatchError, UsageError } from "../errors.ts";
import { terminalSafe } from "../formats/terminal-text.ts";
import { batchEvidencePdf } from "../payments/evidence-pdf.ts";
import { packageVersion } from "../version.ts";
import { type AccountFlag, accountOption } from "./account-option.ts";
import { type Context, runAction, withDatabase } from "./context.ts";
import { checkPdfTarget, langOption, reportLocale, writeReportFile } from "./report-file.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface ReportOptions extends AccountFlag {
  pdf?: string;
  lang?: string;
}

export function registerPaymentsReport(payments: Command): void {
  payments
    .command("report")
    .addOption(accountOption())
    .description(
      "write a recorded batch's evidence report as PDF (exit 0, 1 no such batch, 64 bad arguments)",
    )
    .argument("<batch>", "the batch id (printed by payments check --record, shown on the batch page)")
    .option("--pdf <file>", "where to write the PDF")
    .addOption(langOption())
    .action((batch: string, options: ReportOptions) =>
      runAction((ctx) => reportBatch(ctx, batch, options), options),
    );
}

async function reportBatch(ctx: Context, batch: string, options: ReportOptions) {
  const file = await checkPdfTarget(options.pdf);
  if (!UUID.test(batch))
    throw new UsageError(
      `${terminalSafe(batch)} is not a batch id (a UUID such as payments check --record prints)`,
    );
  const pdf = await withDatabase(ctx, (db) =>
    batchEvidencePdf(db.sql, batch.toLowerCase(), {
      locale: reportLocale(options.lang, ctx.config.locale),
      timeZone: ctx.config.tz,
      madeAt: new Date(),
      version: packageVersion(),
    }),
  );
  if (!pdf) throw new RegwatchError("NOT_FOUND", `no payment batch with id ${batch}`);
  await writeReportFile(file, pdf);
  process.stderr.write(`evidence report written to ${terminalSafe(file)}\n`);
  return EXIT.ok;
}
