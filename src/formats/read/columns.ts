/**
 * Which column of a payment file holds which field (pure). Headers are compared without case,
 * accents, punctuation or blanks, and without a trailing bracketed note ("Összeg (Ft)"), against
 * the Hungarian and English names banks and ERPs use (column-names.ts); `--columns field=Header,...`
 * names anything else and wins over those names.
 */
import { UsageError } from "../../errors.ts";
import { PAYMENT_FIELDS, type PaymentField } from "../batch-row.ts";
import { readCurrency } from "./amounts.ts";
import { ACCOUNT_OR_INVOICE, FIELD_RANKS, INVOICE_RANK } from "./column-names.ts";

/** Field -> header as written in the file. */
export type ColumnMapping = Partial<Record<PaymentField, string>>;

/** The names each field goes by, as people write them (its best rank); compared through `headerKey`. */
export const FIELD_NAMES: Record<PaymentField, readonly string[]> = Object.fromEntries(
  PAYMENT_FIELDS.map((field) => [field, FIELD_RANKS[field][0]!]),
) as Record<PaymentField, readonly string[]>;

/** What a field is called when a message asks for it. */
const NEEDED = "a bank account column";

/** A header reduced to lower-case letters and digits, accents and a trailing "(...)" dropped. */
export function headerKey(header: string): string {
  return header
    .replace(/\s*[([][^)\]]*[)\]]\s*$/, "")
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");
}

/** "Összeg (EUR)" -> EUR; null when the header names no currency. */
function bracketedCurrency(header: string | undefined): string | null {
  const note = header === undefined ? null : /[([]\s*([^)\]]+?)\s*[)\]]\s*$/.exec(header);
  if (!note) return null;
  const currency = readCurrency(note[1]!);
  return currency.ok ? currency.code : null;
}

interface KnownName {
  field: PaymentField;
  rank: number;
}

const FIELD_OF_KEY = new Map<string, KnownName>();
for (const field of PAYMENT_FIELDS) {
  FIELD_RANKS[field].forEach((names, rank) => {
    for (const name of names) FIELD_OF_KEY.set(headerKey(name), { field, rank });
  });
}
const AMBIGUOUS_KEY = headerKey(ACCOUNT_OR_INVOICE);

/** A cell that reads as a bank account: 16 or 24 digits (blanks and dashes aside), or an IBAN. */
export function looksLikeAccount(value: string): boolean {
  const compact = value.replace(/[\s-]/g, "");
  return /^(\d{16}|\d{24})$/.test(compact) || /^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/i.test(compact);
}

/**
 * What a header names: its known field and rank. "Számlaszám" is the bank account, unless another
 * column of the line (`otherAccount`) can be the account and the rows under it (`values`) hold
 * something, none of which looks like an account: then it is the invoice number, read as the
 * reference.
 */
function knownName(header: string, values: readonly string[], otherAccount: boolean): KnownName | undefined {
  const key = headerKey(header);
  if (key === AMBIGUOUS_KEY && otherAccount) {
    const filled = values.map((v) => v.trim()).filter((v) => v !== "");
    if (filled.length > 0 && !filled.some(looksLikeAccount))
      return { field: "reference", rank: INVOICE_RANK };
  }
  return FIELD_OF_KEY.get(key);
}

/** `--columns "tax_id=Adó szám,bank_account=Számla"`; a UsageError names the part that is wrong. */
export function parseColumnsOption(text: string): ColumnMapping {
  const mapping: ColumnMapping = {};
  for (const part of text.split(",")) {
    if (part.trim() === "") continue;
    const equals = part.indexOf("=");
    const field = (equals < 0 ? part : part.slice(0, equals)).trim().toLowerCase();
    const header = equals < 0 ? "" : part.slice(equals + 1).trim();
    if (!(PAYMENT_FIELDS as readonly string[]).includes(field)) {
      throw new UsageError(
        `--columns: "${part.trim()}" names no field (fields: ${PAYMENT_FIELDS.join(", ")}; write field=Header)`,
      );
    }
    if (header === "")
      throw new UsageError(`--columns: "${part.trim()}" gives no header (write field=Header)`);
    if (mapping[field as PaymentField] !== undefined) {
      throw new UsageError(`--columns: ${field} is given twice`);
    }
    mapping[field as PaymentField] = header;
  }
  if (Object.keys(mapping).length === 0) throw new UsageError("--columns: no field=Header pair given");
  return mapping;
}

/** Where each field is in a header line. */
export interface ColumnLayout {
  /** Field -> index of its column. */
  index: Partial<Record<PaymentField, number>>;
  columns: ColumnMapping;
  ignored: string[];
  /** The currency the amount column's header names in brackets ("Összeg (EUR)"), if any. */
  amountCurrency: string | null;
}

export type LayoutMatch = { ok: true; layout: ColumnLayout } | { ok: false; problems: string[] };

function findHeader(headers: readonly string[], wanted: string): number {
  const exact = headers.findIndex((h) => h.trim() === wanted);
  if (exact >= 0) return exact;
  const key = headerKey(wanted);
  return headers.findIndex((h) => headerKey(h) === key);
}

/** How many of `headers` a known name or `--columns` gives a field: how much a line looks like the header. */
export function knownColumnCount(headers: readonly string[], given: ColumnMapping): number {
  const wanted = new Set(Object.values(given).map(headerKey));
  return headers.filter((h) => FIELD_OF_KEY.has(headerKey(h)) || wanted.has(headerKey(h))).length;
}

/**
 * The layout of a header line: `--columns` first, then the known names (the best rank a field's
 * columns have; the others are ignored). A problem when the line has no bank account column, a
 * `--columns` header is missing, or two columns of one rank name one field. `samples` are rows
 * under the header, by which an ambiguous header ("Számlaszám") is told by its values.
 */
export function matchLayout(
  headers: readonly string[],
  given: ColumnMapping = {},
  samples: readonly (readonly string[])[] = [],
): LayoutMatch {
  const index: Partial<Record<PaymentField, number>> = {};
  const problems: string[] = [];
  const taken = new Set<number>();
  for (const field of PAYMENT_FIELDS) {
    const wanted = given[field];
    if (wanted === undefined) continue;
    const at = findHeader(headers, wanted);
    if (at < 0) problems.push(`--columns names "${wanted}" for ${field}, but no column has that header`);
    else {
      index[field] = at;
      taken.add(at);
    }
  }
  const best = new Map<PaymentField, { rank: number; at: number[] }>();
  const accountAt = (h: string, at: number) =>
    taken.has(at)
      ? index.bank_account === at
      : headerKey(h) !== AMBIGUOUS_KEY && FIELD_OF_KEY.get(headerKey(h))?.field === "bank_account";
  const otherAccount = headers.some(accountAt);
  headers.forEach((header, at) => {
    if (taken.has(at)) return;
    const known = knownName(
      header,
      samples.map((row) => row[at] ?? ""),
      otherAccount,
    );
    if (known === undefined || given[known.field] !== undefined) return;
    const seen = best.get(known.field);
    if (seen === undefined || known.rank < seen.rank) best.set(known.field, { rank: known.rank, at: [at] });
    else if (known.rank === seen.rank) seen.at.push(at);
  });
  for (const [field, { at }] of best) {
    if (at.length === 1) {
      index[field] = at[0]!;
      taken.add(at[0]!);
    } else {
      problems.push(
        `columns ${at.map((i) => `"${headers[i]}"`).join(" and ")} both give ${field}: name the one to use with --columns ${field}=Header`,
      );
    }
  }
  if (index.bank_account === undefined && given.bank_account === undefined && !best.has("bank_account")) {
    problems.push(
      `found: ${headers.map((h) => `"${h}"`).join(", ")}; needs ${NEEDED} (${FIELD_NAMES.bank_account.slice(0, 4).join(", ")}, IBAN, bank_account), and reads tax_id, amount, currency, reference and name when given; name other headers with --columns field=Header`,
    );
  }
  if (problems.length > 0) return { ok: false, problems };
  const columns: ColumnMapping = {};
  for (const field of PAYMENT_FIELDS) {
    const at = index[field];
    if (at !== undefined) columns[field] = headers[at]!;
  }
  const ignored = headers.filter((header, at) => !taken.has(at) && header !== "");
  return { ok: true, layout: { index, columns, ignored, amountCurrency: bracketedCurrency(columns.amount) } };
}
