/**
 * Which column of a payment file holds which field (pure). Headers are compared without case,
 * accents, punctuation or blanks, and without a trailing bracketed note ("Összeg (Ft)"), against
 * the Hungarian and English names banks and ERPs use; `--columns field=Header,...` names anything
 * else and wins over those names.
 */
import { UsageError } from "../../errors.ts";
import { PAYMENT_FIELDS, type PaymentField } from "../batch-row.ts";
import { readCurrency } from "./amounts.ts";

/** Field -> header as written in the file. */
export type ColumnMapping = Partial<Record<PaymentField, string>>;

/** The names each field goes by, as people write them; compared through `headerKey`. */
export const FIELD_NAMES: Record<PaymentField, readonly string[]> = {
  tax_id: [
    "adószám",
    "adóazonosító",
    "adóazonosító jel",
    "adóazonosító szám",
    "partner adószáma",
    "kedvezményezett adószáma",
    "tax_id",
    "tax_number",
    "tax id",
    "vat number",
  ],
  bank_account: [
    "számlaszám",
    "bankszámlaszám",
    "bankszámla",
    "kedvezményezett számlaszáma",
    "kedvezményezett bankszámlaszáma",
    "jóváírandó számla",
    "jóváírandó számlaszám",
    "partner bankszámlaszáma",
    "iban",
    "bank_account",
    "account",
    "account number",
  ],
  amount: ["összeg", "átutalandó összeg", "utalandó összeg", "amount"],
  currency: ["pénznem", "deviza", "devizanem", "currency"],
  reference: ["közlemény", "megjegyzés", "reference"],
  name: [
    "kedvezményezett neve",
    "kedvezményezett",
    "partner neve",
    "partner",
    "név",
    "name",
    "payee",
    "beneficiary",
  ],
};

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

const FIELD_OF_KEY = new Map<string, PaymentField>();
for (const field of PAYMENT_FIELDS) {
  for (const name of FIELD_NAMES[field]) FIELD_OF_KEY.set(headerKey(name), field);
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
 * The layout of a header line: `--columns` first, then the known names. A problem when the line
 * has no bank account column, a `--columns` header is missing, or two columns name one field.
 */
export function matchLayout(headers: readonly string[], given: ColumnMapping = {}): LayoutMatch {
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
  const repeated = new Map<PaymentField, string[]>();
  headers.forEach((header, at) => {
    if (taken.has(at)) return;
    const field = FIELD_OF_KEY.get(headerKey(header));
    if (field === undefined || given[field] !== undefined) return;
    if (index[field] === undefined) {
      index[field] = at;
      taken.add(at);
    } else repeated.set(field, [...(repeated.get(field) ?? [headers[index[field]]!]), header]);
  });
  for (const [field, names] of repeated) {
    problems.push(
      `columns ${names.map((n) => `"${n}"`).join(" and ")} both give ${field}: name the one to use with --columns ${field}=Header`,
    );
  }
  if (index.bank_account === undefined && given.bank_account === undefined) {
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
