/**
 * `regwatch payments check FILE`: a verdict for every payment of a batch against what the
 * registry says (profiles, search records, bank-account changes), optionally asking the search
 * interface about accounts nothing local knows. Nothing of the batch is kept unless --record.
 */
import { readFile } from "node:fs/promises";
import type { Command } from "commander";
import { requireSearch } from "../config.ts";
import { localDateTime } from "../dates.ts";
import type { Database } from "../db/connect.ts";
import {
  loadBankAccounts,
  loadBusinessFacts,
  loadWatchedTaxIds,
  recordPaymentChecks,
} from "../db/payments.ts";
import { EXIT, UsageError } from "../errors.ts";
import { parseAccount } from "../payments/accounts.ts";
import { type PaymentRow, parseBatchCsv, taxBaseOfRow } from "../payments/batch-csv.ts";
import { askAccountsOnline, type OnlineOutcome } from "../payments/online.ts";
import { type BatchReport, formatCsv, formatJson, formatText, isFlagged } from "../payments/report.ts";
import { judgeBatch, type Knowledge } from "../payments/verdicts.ts";
import { saveBusinesses } from "../search/save-businesses.ts";
import { redactSecrets } from "../secrets.ts";
import { isValidTaxId } from "../taxid.ts";
import { type Context, parseNonNegativeInt, runAction, withDatabase } from "./context.ts";
import { withSearch } from "./lookup.ts";

interface CheckOptions {
  holdDays?: number;
  online?: boolean;
  json?: boolean;
  csv?: boolean;
  record?: boolean;
}

export function registerPayments(program: Command): void {
  const payments = program.command("payments").description("check payments against the registry");
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
      "ask the search interface about accounts not known locally (each request counts against the monthly quota)",
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
    let online: OnlineOutcome | null = null;
    let knowledge = await loadKnowledge(db, parsed.rows, new Map());
    if (options.online) {
      const unknown = accountsNotKnown(parsed.rows, knowledge);
      online = await withSearch(ctx, db, (client) =>
        askAccountsOnline(unknown, async (value) => {
          const result = await client.search("bank-account", value);
          await saveBusinesses(db.sql, result.records);
          return result.records;
        }),
      );
      if (online.quotaMessage) process.stderr.write(`regwatch: ${redactSecrets(online.quotaMessage)}\n`);
      knowledge = await loadKnowledge(db, parsed.rows, online.notChecked);
    }
    const rows = judgeBatch(parsed.rows, knowledge, today, holdDays);
    const batchId = options.record
      ? await recordPaymentChecks(
          db.sql,
          rows.map((r) => ({
            line: r.line,
            taxId: r.taxId,
            bankAccount: r.account ?? r.bankAccount,
            verdict: r.verdict,
            detail: redactSecrets(r.detail) || null,
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
      online: online && { asked: online.asked, notChecked: online.notChecked.size },
      batchId,
    };
  });
  process.stdout.write(
    options.json ? formatJson(report) : options.csv ? formatCsv(report) : formatText(report),
  );
  return isFlagged(report.rows) ? EXIT.pending : EXIT.ok;
}

/** Canonical accounts of readable rows, in batch order, without repeats. */
function readableAccounts(rows: readonly PaymentRow[]): string[] {
  const accounts = new Set<string>();
  for (const row of rows) {
    const parsed = parseAccount(row.bankAccount);
    if (parsed.ok && isValidTaxId(taxBaseOfRow(row.taxId))) accounts.add(parsed.account);
  }
  return [...accounts];
}

/** Accounts of checkable rows that no local source shows at all. */
function accountsNotKnown(rows: readonly PaymentRow[], knowledge: Knowledge): string[] {
  const known = new Set(knowledge.accounts.map((a) => a.account));
  return readableAccounts(rows).filter((a) => !known.has(a));
}

async function loadKnowledge(
  db: Database,
  rows: readonly PaymentRow[],
  notCheckedOnline: Map<string, string>,
): Promise<Knowledge> {
  const taxIds = [...new Set(rows.map((r) => taxBaseOfRow(r.taxId)).filter(isValidTaxId))];
  const accounts = await loadBankAccounts(db.sql, taxIds, readableAccounts(rows));
  // Businesses that hold a batch's account are named in its verdict, so their facts are loaded too.
  const holders = accounts.map((a) => a.taxId);
  const facts = await loadBusinessFacts(db.sql, [...new Set([...taxIds, ...holders])]);
  const watched = new Set(await loadWatchedTaxIds(db.sql, taxIds));
  return { businesses: new Map(facts.map((f) => [f.taxId, f])), watched, accounts, notCheckedOnline };
}
