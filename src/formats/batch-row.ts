/**
 * One payment of a batch file as the reader gives it to the check (src/payments/read/), and the
 * problems that make a file unreadable. The reader only reads; whether a row may be paid is the
 * verdicts' business (src/payments/verdicts.ts).
 */
import { isValidTaxId, taxBaseOf } from "../taxid.ts";

/** The fields a payment file can give, whatever its own column names are. */
export const PAYMENT_FIELDS = ["tax_id", "bank_account", "amount", "currency", "reference", "name"] as const;
export type PaymentField = (typeof PAYMENT_FIELDS)[number];

export interface PaymentRow {
  /** Line of the file the row starts on (1 = the first line, the header). */
  line: number;
  /** As written (trimmed); null when the file has no tax number column or the cell is empty. */
  taxId: string | null;
  /** As written (trimmed); never empty. */
  bankAccount: string;
  /** Plain decimal ("-1250000.5"); null when the file gives no amount or it cannot be read. */
  amount: string | null;
  /** The amount cell as written; null when the file has no amount column. */
  amountRaw: string | null;
  /** Why the amount cannot be read (then `amount` is null); the verdict is invalid_amount. */
  amountProblem: string | null;
  /** Upper-case currency code: the row's own, else the batch's default. */
  currency: string | null;
  reference: string | null;
  /** The payee's name as the file gives it. */
  name: string | null;
}

export interface FileProblem {
  line: number;
  message: string;
}

/** A row's tax number read: the base it names, and whether such a base can exist. */
export interface RowTaxBase {
  base: string;
  valid: boolean;
}

/**
 * Tax numbers as written, to the base they name and its validity: a batch pays the same payees
 * again and again, and each row's base is asked for several times (its reads, its payee, its
 * verdict), each a regular expression's match and a check digit otherwise. Bounded like the
 * accounts parsed once.
 */
const bases = new Map<string, RowTaxBase>();
const BASES_LIMIT = 20_000;

/** The tax base number a row names (a tax number's first eight digits, else the value itself), and whether it is valid. */
export function rowTaxBase(taxId: string): RowTaxBase {
  let read = bases.get(taxId);
  if (read === undefined) {
    if (bases.size >= BASES_LIMIT) bases.clear();
    const base = taxBaseOf(taxId) ?? taxId;
    read = { base, valid: isValidTaxId(base) };
    bases.set(taxId, read);
  }
  return read;
}

/** The tax base number a row names: a tax number's first eight digits, else the value itself. */
export function taxBaseOfRow(taxId: string): string {
  return rowTaxBase(taxId).base;
}
