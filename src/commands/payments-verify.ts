/**
 * `regwatch payments verify ACCOUNT --tax-id T --by WHO [--note TEXT]`: records that someone
 * confirmed, out of band, that the account belongs to the business (a call to the supplier on a
 * number already held). The payment check then lets go the payments to that account that a change
 * of the business's accounts dated on or before that day held; a newer change holds them again.
 * `regwatch payments verifications [--tax-id T] [--bank-account A] [--json]` lists what was recorded.
 */
import type { Command } from "commander";
import { EXIT, UsageError } from "../errors.ts";
import { terminalSafe } from "../formats/terminal-text.ts";
import { parseAccount } from "../payments/accounts.ts";
import { listVerifications, type VerificationRow, verifyPayee } from "../payments/verification.ts";
import { formatTable } from "../search/format.ts";
import { describeTaxIdProblem, taxBaseOf } from "../taxid.ts";
import { type AccountFlag, accountOption } from "./account-option.ts";
import { actorName } from "./actor.ts";
import { parsePositiveInt } from "./arg-parsers.ts";
import { type Context, runAction, withDatabase } from "./context.ts";

interface VerifyOptions extends AccountFlag {
  taxId: string;
  by?: string;
  note?: string;
}

interface ListOptions extends AccountFlag {
  taxId?: string;
  bankAccount?: string;
  limit?: number;
  json?: boolean;
}

export function registerPaymentsVerify(payments: Command): void {
  payments
    .command("verify")
    .addOption(accountOption())
    .description(
      "record that an account was confirmed with the payee out of band; releases the holds its account changes up to today caused (exit 0, 64 bad arguments)",
    )
    .argument("<account>", "the confirmed account: 16 or 24 digits, or a Hungarian IBAN")
    .requiredOption("--tax-id <tax-id>", "the payee's tax number or tax base number")
    .option("--by <who>", "who confirmed it (default: the operating-system user)")
    .option("--note <text>", "how it was confirmed: whom you called, on which number you already had")
    .action((account: string, options: VerifyOptions) =>
      runAction((ctx) => recordVerification(ctx, account, options), options),
    );
  payments
    .command("verifications")
    .addOption(accountOption())
    .description("list recorded verifications, newest first")
    .option("--tax-id <tax-id>", "only this business's")
    .option("--bank-account <account>", "only this bank account's")
    .option("--limit <n>", "at most this many (default 1000)", parsePositiveInt)
    .option("--json", "print JSON")
    .action((options: ListOptions) => runAction((ctx) => printVerifications(ctx, options), options));
}

async function recordVerification(ctx: Context, account: string, options: VerifyOptions) {
  const result = await withDatabase(ctx, (db) =>
    verifyPayee(
      db,
      {
        account,
        taxId: options.taxId,
        // A blank --by is named with the other problems; none given is the operating-system user.
        by: options.by ?? actorName(undefined),
        note: options.note ?? null,
      },
      ctx.config.registryTz,
    ),
  );
  if (!result.ok) throw new UsageError(`nothing recorded: ${result.problems.join("; ")}`);
  const v = result.verification;
  const said = `verified by ${terminalSafe(v.verifiedBy)} on ${v.verifiedOn}${v.note ? ` (${terminalSafe(v.note)})` : ""}`;
  process.stdout.write(
    `recorded verification ${v.id}: account ${v.account} of ${v.taxId}, ${said}\n` +
      `payments to it that a change of ${v.taxId}'s accounts dated on or before ${v.verifiedOn} held now pass; a later change holds them again\n`,
  );
  if (!v.note)
    process.stderr.write("regwatch: no --note given: say how the account was confirmed next time\n");
  return EXIT.ok;
}

function checkFilter(options: ListOptions): { taxId: string | null; account: string | null } {
  let taxId: string | null = null;
  if (options.taxId !== undefined) {
    taxId = taxBaseOf(options.taxId) ?? options.taxId.trim();
    const problem = describeTaxIdProblem(taxId);
    if (problem) throw new UsageError(`--tax-id: ${problem}`);
  }
  let account: string | null = null;
  if (options.bankAccount !== undefined) {
    const parsed = parseAccount(options.bankAccount);
    if (!parsed.ok) throw new UsageError(`--bank-account: ${parsed.problem}`);
    account = parsed.account;
  }
  return { taxId, account };
}

function jsonOf(v: VerificationRow) {
  return {
    id: v.id,
    tax_id: v.taxId,
    bank_account: v.account,
    verified_by: v.verifiedBy,
    verified_at: v.verifiedAt.toISOString(),
    verified_on: v.verifiedOn,
    note: v.note,
  };
}

async function printVerifications(ctx: Context, options: ListOptions) {
  const filter = { ...checkFilter(options), limit: options.limit };
  const rows = await withDatabase(ctx, (db) => listVerifications(db, filter, ctx.config.registryTz), {
    max: 1,
  });
  if (options.json) {
    process.stdout.write(`${JSON.stringify(rows.map(jsonOf), null, 2)}\n`);
    return EXIT.ok;
  }
  if (rows.length === 0) {
    process.stdout.write("no verifications recorded\n");
    return EXIT.ok;
  }
  const table = formatTable(
    ["ID", "VERIFIED ON", "TAX ID", "ACCOUNT", "BY", "NOTE"],
    rows.map((v) => [
      String(v.id),
      v.verifiedOn,
      v.taxId,
      v.account,
      terminalSafe(v.verifiedBy),
      terminalSafe(v.note ?? ""),
    ]),
  );
  process.stdout.write(`${table}\n`);
  return EXIT.ok;
}
