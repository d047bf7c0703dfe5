/**
 * One record of a payment file to a PaymentRow (pure). What makes the file unreadable (a wrong
 * number of fields, no bank account, an ambiguous amount) is a problem of the file, named by its
 * line; what is readable but wrong (an amount that is no number, a currency that is no code) is
 * left on the row for its verdict.
 */
import type { FileProblem, PaymentRow } from "../batch-row.ts";
import { plainSpaces, readAmount, readCurrency, splitCurrency } from "./amounts.ts";
import type { ColumnLayout } from "./columns.ts";

export interface RowPlan {
  layout: ColumnLayout;
  /** How many columns the header names. */
  width: number;
  /** The batch's currency for rows that give none (a known code). */
  currency: string;
}

export type RowReading = { ok: true; row: PaymentRow } | { ok: false; problem: FileProblem };

/** The field at `at`, its odd spaces made plain (only where the record may hold some) and trimmed. */
function cell(fields: readonly string[], at: number | undefined, oddSpaces: boolean): string | null {
  if (at === undefined) return null;
  const field = fields[at] ?? "";
  const value = (oddSpaces ? plainSpaces(field) : field).trim();
  return value === "" ? null : value;
}

/**
 * A row narrower than the header reads its missing trailing cells as empty (Excel leaves an empty
 * last cell out of a row, and so do exports made from it); extra fields past the header's width
 * are tolerated when empty (a trailing delimiter), and refuse the row otherwise.
 */
function widthProblem(fields: readonly string[], width: number): string | undefined {
  if (fields.length <= width) return undefined;
  if (fields.slice(width).every((f) => f.trim() === "")) return undefined;
  return `${fields.length} field(s), but the header names ${width} columns`;
}

interface Money {
  amount: string | null;
  amountProblem: string | null;
  currency: string;
  ambiguous?: string;
}

/** The currency a row states: its currency cell, else the amount column's header ("Összeg (EUR)"). */
function statedCurrency(
  currencyCell: string | null,
  plan: RowPlan,
): { ok: true; code: string | undefined } | { ok: false; problem: string } {
  const header = plan.layout.amountCurrency ?? undefined;
  if (currencyCell === null) return { ok: true, code: header };
  const own = readCurrency(currencyCell);
  if (!own.ok) return own;
  if (header !== undefined && own.code !== header) {
    return {
      ok: false,
      problem: `the row's currency is ${own.code}, but the amount column is headed ${header}`,
    };
  }
  return own;
}

function moneyOf(amountCell: string | null, currencyCell: string | null, plan: RowPlan): Money {
  const stated = statedCurrency(currencyCell, plan);
  const hasAmount = plan.layout.index.amount !== undefined;
  if (!stated.ok) {
    const currency = (currencyCell ?? plan.currency).toUpperCase();
    return { amount: null, amountProblem: hasAmount ? stated.problem : null, currency };
  }
  const own = stated.code;
  if (!hasAmount) return { amount: null, amountProblem: null, currency: own ?? plan.currency };
  if (amountCell === null) {
    return { amount: null, amountProblem: "the amount is empty", currency: own ?? plan.currency };
  }
  const split = splitCurrency(amountCell);
  const written = split.currency === null ? undefined : readCurrency(split.currency);
  if (written && !written.ok)
    return { amount: null, amountProblem: written.problem, currency: own ?? plan.currency };
  if (own !== undefined && written && own !== written.code) {
    return {
      amount: null,
      amountProblem: `amount "${amountCell}" is in ${written.code}, but the row's currency is ${own}`,
      currency: own,
    };
  }
  const currency = own ?? written?.code ?? plan.currency;
  const reading = readAmount(split.text, currency, amountCell);
  if (reading.kind === "amount") return { amount: reading.amount, amountProblem: null, currency };
  if (reading.kind === "ambiguous")
    return { amount: null, amountProblem: null, currency, ambiguous: reading.problem };
  return { amount: null, amountProblem: reading.problem, currency };
}

/**
 * A record's row, or the problem that makes its file unreadable. `oddSpaces` false: the record
 * holds no space plainSpaces would change (its reader looked), so its fields are only trimmed.
 */
export function readRow(
  fields: readonly string[],
  line: number,
  plan: RowPlan,
  oddSpaces = true,
): RowReading {
  const width = widthProblem(fields, plan.width);
  if (width) return { ok: false, problem: { line, message: width } };
  const { index, columns } = plan.layout;
  const bankAccount = cell(fields, index.bank_account, oddSpaces);
  if (bankAccount === null) {
    return { ok: false, problem: { line, message: `no bank account (column "${columns.bank_account}")` } };
  }
  const amountRaw = index.amount === undefined ? null : (fields[index.amount] ?? "").trim();
  const money = moneyOf(cell(fields, index.amount, oddSpaces), cell(fields, index.currency, oddSpaces), plan);
  if (money.ambiguous) return { ok: false, problem: { line, message: money.ambiguous } };
  return {
    ok: true,
    row: {
      line,
      taxId: cell(fields, index.tax_id, oddSpaces),
      bankAccount,
      amount: money.amount,
      amountRaw,
      amountProblem: money.amountProblem,
      currency: money.currency,
      reference: cell(fields, index.reference, oddSpaces),
      name: cell(fields, index.name, oddSpaces),
    },
  };
}
