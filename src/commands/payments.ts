/**
 * `regwatch payments check FILE`: a verdict for every payment of a batch file as banks and ERPs
 * export it (any of the usual encodings, Hungarian or English headers, amounts as written),
 * against what the registry says, optionally asking the search interface (--online). The file
 * is checked as a stream (src/payments/pipeline.ts): text, JSON, CSV and the --xlsx workbook are
 * written chunk by chunk, and --record keeps the batch in payment_batches and payment_checks.
 * An .xlsx batch is read through its first sheet, as the console reads it; a damaged workbook is a
 * bad file (64). `payments verify` and `payments verifications` live in payments-verify.ts.
 */
import { constants } from "node:fs";
import { access, mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Command } from "commander";
import { requireSearch } from "../config.ts";
import { localDateTime } from "../dates.ts";
import { EXIT, UsageError } from "../errors.ts";
import { parseColumnsOption } from "../formats/read/batch-reader.ts";
import { fileDigest } from "../formats/read/file-digest.ts";
import { looksLikeZip, XlsxRefusedError, xlsxToCsv } from "../formats/read/xlsx.ts";
import { terminalSafe } from "../formats/terminal-text.ts";
import { favourMemoryOverCollections } from "../heap-growth.ts";
import { startOnline } from "../payments/check-chunk.ts";
import {
  type BatchCheckOptions,
  type BatchCheckResult,
  checkBatch,
  type RowSink,
} from "../payments/pipeline.ts";
import { CsvSink } from "../payments/report-csv.ts";
import { JsonSink } from "../payments/report-json.ts";
import { TextSink } from "../payments/report-text.ts";
import { redactSecrets } from "../secrets.ts";
import { type AccountFlag, accountOption } from "./account-option.ts";
import { actorName } from "./actor.ts";
import { parseNonNegativeInt } from "./arg-parsers.ts";
import { type Context, runAction, withDatabase } from "./context.ts";
import { registerPaymentsReport } from "./payments-report.ts";
import { registerPaymentsVerify } from "./payments-verify.ts";

interface CheckOptions extends AccountFlag {
  encoding?: string;
  columns?: string;
  currency: string;
  holdDays?: number;
  online?: boolean;
  json?: boolean;
  csv?: boolean;
  xlsx?: string;
  record?: boolean;
  by?: string;
}

export function registerPayments(program: Command): void {
  const payments = program.command("payments").description("check payments against the registry");
  payments
    .command("check")
    .addOption(accountOption())
    .description("give every payment of a batch file a verdict (exit 0 all pass, 2 some held, 64 bad file)")
    .argument(
      "<file>",
      "CSV or text export with a bank account column (számlaszám, IBAN, bank_account); tax number, amount, currency, reference and name optional",
    )
    .option(
      "--encoding <name>",
      "read the file in this encoding (default: detected; e.g. windows-1250, utf-16le)",
    )
    .option(
      "--columns <mapping>",
      'which header holds which field, for headers regwatch does not know: "bank_account=Jóváírás számla,amount=Érték"',
    )
    .option("--currency <code>", "currency of rows that name none", "HUF")
    .option(
      "--hold-days <n>",
      "hold accounts added within N days (default REGWATCH_PAYMENT_HOLD_DAYS)",
      parseNonNegativeInt,
    )
    .option(
      "--online",
      "re-read payees whose record is older than REGWATCH_PAYMENT_RECHECK_DAYS and look up accounts not known locally (each request counts against the monthly quota)",
    )
    .option("--json", "print the verdicts as JSON")
    .option("--csv", "print the verdicts as CSV")
    .option("--xlsx <file>", "also write the verdicts to an Excel workbook")
    .option(
      "--record",
      "keep the batch in payment_batches and its verdicts in payment_checks (of the account's schema)",
    )
    .option("--by <who>", `who checks the batch, kept with --record (default: the operating-system user)`)
    .action((file: string, options: CheckOptions) =>
      runAction((ctx) => checkPayments(ctx, file, options), options),
    );
  registerPaymentsVerify(payments);
  registerPaymentsReport(payments);
}

async function checkArguments(file: string, options: CheckOptions): Promise<void> {
  if (options.json && options.csv) throw new UsageError("give at most one of --json and --csv");
  if (options.by !== undefined && !options.record) throw new UsageError("--by is kept only with --record");
  try {
    if (!(await stat(file)).isFile()) throw new UsageError(`cannot read ${file}: not a file`);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      `cannot read ${file}: ${code === "ENOENT" ? "no such file" : String(code ?? error)}`,
    );
  }
  if (options.xlsx) {
    const dir = path.dirname(path.resolve(options.xlsx));
    await access(dir, constants.W_OK).catch(() => {
      throw new UsageError(
        `cannot write ${options.xlsx}: the folder ${dir} does not exist or is not writable`,
      );
    });
  }
}

async function outputs(options: CheckOptions, today: string, holdDays: number): Promise<RowSink[]> {
  const main = options.json
    ? new JsonSink(process.stdout, { today, holdDays })
    : options.csv
      ? new CsvSink(process.stdout)
      : new TextSink(process.stdout);
  if (!options.xlsx) return [main];
  // Loaded only for a workbook.
  const { XlsxSink } = await import("../payments/report-xlsx.ts");
  return [main, new XlsxSink(options.xlsx)];
}

async function checkPayments(ctx: Context, file: string, options: CheckOptions) {
  await checkArguments(file, options);
  favourMemoryOverCollections();
  if (options.online) requireSearch(ctx.config);
  const holdDays = options.holdDays ?? ctx.config.paymentHoldDays;
  const today = localDateTime(new Date(), ctx.config.registryTz).date;
  const check: BatchCheckOptions = {
    read: {
      currency: options.currency,
      ...(options.encoding ? { encoding: options.encoding } : {}),
      ...(options.columns ? { columns: parseColumnsOption(options.columns) } : {}),
    },
    holdDays,
    today,
    recheckDays: ctx.config.paymentRecheckDays,
    acceptUnconfirmed: ctx.config.paymentAcceptUnconfirmed,
    timeZone: ctx.config.registryTz,
    online: null,
    record: options.record
      ? { by: actorName(options.by), source: "cli", fileName: file, file: await fileDigest(file) }
      : null,
  };
  const result = await withSheetFile(file, (readable, sheet) =>
    withDatabase(ctx, async (db): Promise<BatchCheckResult> => {
      const sinks = await outputs(options, today, holdDays);
      // A sheet is written out as UTF-8 whatever --encoding says of the file.
      const own: BatchCheckOptions = sheet
        ? { ...check, read: { ...check.read, encoding: undefined } }
        : check;
      if (!options.online) return checkBatch(db, readable, own, sinks);
      // The registry's client (undici with it, about 1 MB of code) is loaded only for --online.
      const { withSearch } = await import("./lookup.ts");
      return withSearch(ctx, db, (client) =>
        checkBatch(db, readable, { ...own, online: startOnline(db, client) }, sinks),
      );
    }),
  );
  if (!result.ok) {
    // Every problem at once, so the file is fixed in one pass; nothing was checked. A problem
    // quotes the file's header and cells (and the path may hold anything): escaped, never obeyed.
    const shown = terminalSafe(file);
    for (const p of result.problems)
      process.stderr.write(`${shown}: line ${p.line}: ${terminalSafe(p.message)}\n`);
    process.stderr.write(
      `regwatch: ${result.problems.length} problem(s) in ${shown}; no payment was checked\n`,
    );
    return EXIT.usage;
  }
  const { summary } = result;
  if (summary.layout.encodingNote)
    process.stderr.write(`regwatch: ${terminalSafe(summary.layout.encodingNote)}\n`);
  if (summary.online?.quotaMessage)
    process.stderr.write(`regwatch: ${terminalSafe(redactSecrets(summary.online.quotaMessage))}\n`);
  if (options.xlsx) process.stderr.write(`workbook written to ${options.xlsx}\n`);
  // Text and JSON name the recorded batch; CSV has no place for it.
  if (options.csv && summary.batchId) process.stderr.write(`recorded as batch ${summary.batchId}\n`);
  return summary.heldCount > 0 ? EXIT.pending : EXIT.ok;
}

/** Gives `fn` the file to read: the file itself, or a workbook's first sheet written out as CSV. */
async function withSheetFile<T>(
  file: string,
  fn: (readable: string, sheet: boolean) => Promise<T>,
): Promise<T> {
  if (!(await looksLikeZip(file))) return fn(file, false);
  const dir = await mkdtemp(path.join(tmpdir(), "regwatch-sheet-"));
  try {
    const csv = path.join(dir, "sheet.csv");
    try {
      await xlsxToCsv(file, csv);
    } catch (error) {
      if (!(error instanceof XlsxRefusedError)) throw error;
      throw new UsageError(`cannot read ${terminalSafe(file)}: ${terminalSafe(error.message)}`);
    }
    return await fn(csv, true);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
