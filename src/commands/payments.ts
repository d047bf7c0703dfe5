/**
 * `regwatch payments check FILE`: a verdict for every payment of a batch against what the
 * registry says (profiles, search records, bank-account changes), optionally re-reading stale
 * payees and looking up accounts nothing local knows through the search interface
 * (src/payments/recheck.ts). Nothing of the batch is kept unless --record.
 */
import { readFile } from "node:fs/promises";
import type { Command } from "commander";
import { requireSearch } from "../config.ts";
import { localDateTime } from "../dates.ts";
import { recordPaymentChecks } from "../db/payments.ts";
import { EXIT, UsageError } from "../errors.ts";
import { parseBatchCsv } from "../payments/batch-csv.ts";
import { checkChunk, type OnlineSession, startOnline } from "../payments/check-chunk.ts";
import { type BatchReport, formatCsv, formatJson, formatText, isFlagged } from "../payments/report.ts";
import type { CheckedRow } from "../payments/verdicts.ts";
import { redactSecrets } from "../secrets.ts";
import { type Context, parseNonNegativeInt, runAction, withDatabase } from "./context.ts";
import { withSearch } from "./lookup.ts";
import { registerPaymentsVerify } from "./payments-verify.ts";

interface CheckOptions {
  holdDays?: number;
  online?: boolean;
  json?: boolean;
  csv?: boolean;
  record?: boolean;
}

export function registerPayments(program: Command): void {
  const payments = program.command("payments").description("check payments against the registry");
  registerPaymentsVerify(payments);
  payments
    .command("check")
    .description("give every payment of a CSV batch a verdict (exit 0 all pass, 2 some flagged, 64 bad file)")
    .argument(
      "<file>",
      "CSV with tax_id or tax_number and bank_account columns (amount, currency, reference, name optional)",
    )
    .option(
      "--hold-days <n>",
      "flag accounts added within N days (default REGWATCH_PAYMENT_HOLD_DAYS)",
      parseNonNegativeInt,
    )
    .option(
      "--online",
      "re-read payees whose record is older than REGWATCH_PAYMENT_RECHECK_DAYS and look up accounts not known locally (each request counts against the monthly quota)",
    )
    .option("--json", "print the verdicts as JSON")
    .option("--csv", "print the verdicts as CSV")
    .option("--record", "keep the checked rows and verdicts in regwatch.payment_checks")
    .action((file: string, options: CheckOptions) => runAction((ctx) => checkPayments(ctx, file, options)));
}

async function readBatch(file: string): Promise<string> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      `cannot read ${file}: ${code === "ENOENT" ? "no such file" : String(code ?? error)}`,
    );
  }
}

async function checkPayments(ctx: Context, file: string, options: CheckOptions) {
  if (options.json && options.csv) throw new UsageError("give at most one of --json and --csv");
  if (options.online) requireSearch(ctx.config);
  const parsed = parseBatchCsv(await readBatch(file));
  if (!parsed.ok) {
    // Every problem at once, so the file is fixed in one pass; nothing was checked.
    for (const p of parsed.problems) process.stderr.write(`${file}: line ${p.line}: ${p.message}\n`);
    process.stderr.write(
      `regwatch: ${parsed.problems.length} problem(s) in ${file}; no payment was checked\n`,
    );
    return EXIT.usage;
  }
  const holdDays = options.holdDays ?? ctx.config.paymentHoldDays;
  const today = localDateTime(new Date(), ctx.config.registryTz).date;
  const report = await withDatabase(ctx, async (db): Promise<BatchReport> => {
    // Bridge until the streaming reader lands: the old reader's rows in the new row shape.
    const batch = parsed.rows.map((r) => ({ ...r, amountRaw: r.amount, amountProblem: null }));
    const check = (online: OnlineSession | null) =>
      checkChunk(db, batch, {
        today,
        holdDays,
        recheckDays: ctx.config.paymentRecheckDays,
        timeZone: ctx.config.registryTz,
        online,
      });
    let online: OnlineSession | null = null;
    let rows: CheckedRow[];
    if (options.online) {
      rows = await withSearch(ctx, db, (client) => {
        online = startOnline(db, client);
        return check(online);
      });
    } else rows = await check(null);
    const session = online as OnlineSession | null;
    if (session?.quotaMessage) process.stderr.write(`regwatch: ${redactSecrets(session.quotaMessage)}\n`);
    const batchId = options.record
      ? await recordPaymentChecks(
          db.sql,
          rows.map((r) => ({
            line: r.line,
            taxId: r.taxBase ?? r.taxId ?? "",
            bankAccount: r.account ?? r.bankAccount,
            verdict: r.verdict,
            detail: redactSecrets(r.detail) || null,
            nextStep: r.nextStep,
            amount: r.amount,
            currency: r.currency,
            reference: r.reference,
          })),
        )
      : null;
    return {
      rows,
      holdDays,
      today,
      online: session && { asked: session.asked, notChecked: session.notChecked },
      batchId,
    };
  });
  process.stdout.write(
    options.json ? formatJson(report) : options.csv ? formatCsv(report) : formatText(report),
  );
  return isFlagged(report.rows) ? EXIT.pending : EXIT.ok;
}
