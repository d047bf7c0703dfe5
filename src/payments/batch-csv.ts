/**
 * The payment batch file of `regwatch payments check` (pure): CSV with a header, comma or
 * semicolon separated (the header line decides), a BOM and quoted fields allowed. A line the
 * check cannot read is a problem of the file, named with its line number, and nothing is checked;
 * an identifier that is readable but wrong (a bad check digit) is a verdict of its row instead.
 */
import { CsvError, parse } from "csv-parse/sync";
import { taxBaseOf } from "../taxid.ts";

export interface PaymentRow {
  line: number;
  /** As written in the file (trimmed). */
  taxId: string;
  bankAccount: string;
  amount: string | null;
  currency: string | null;
  reference: string | null;
  name: string | null;
}

export interface FileProblem {
  line: number;
  message: string;
}

export type ParsedBatch = { ok: true; rows: PaymentRow[] } | { ok: false; problems: FileProblem[] };

const TAX_COLUMNS = ["tax_id", "tax_number"] as const;
const OPTIONAL_COLUMNS = ["amount", "currency", "reference", "name"] as const;
const KNOWN_COLUMNS: readonly string[] = [...TAX_COLUMNS, "bank_account", ...OPTIONAL_COLUMNS];

/** Semicolon when the header line has more of them outside quotes than commas. */
function delimiterOf(text: string): "," | ";" {
  const firstLine = text.split(/\r?\n/, 1)[0] ?? "";
  const unquoted = firstLine.replace(/"[^"]*"/g, "");
  const count = (c: string) => unquoted.split(c).length - 1;
  return count(";") > count(",") ? ";" : ",";
}

/**
 * An amount as people write it to a plain decimal string, or undefined when unreadable. Blanks
 * and apostrophes group thousands; when both a point and a comma occur the later one is the
 * decimal mark; a mark that occurs once is the decimal mark (`1,5` and `1.5` are both 1.5), one
 * that occurs several times groups thousands.
 */
export function normaliseAmount(raw: string): string | undefined {
  let value = raw.trim().replace(/[ '\u00a0\u202f]/g, "");
  if (!/^-?[\d.,]+$/.test(value)) return undefined;
  const lastPoint = value.lastIndexOf(".");
  const lastComma = value.lastIndexOf(",");
  if (lastPoint >= 0 && lastComma >= 0) {
    const [group, mark] = lastPoint > lastComma ? [",", "."] : [".", ","];
    value = value.split(group).join("").replace(mark, ".");
  } else {
    const mark = lastPoint >= 0 ? "." : ",";
    const parts = value.split(mark);
    value = parts.length === 2 ? parts.join(".") : parts.join("");
  }
  return /^-?\d+(\.\d+)?$/.test(value) ? value : undefined;
}

interface Parsed {
  record: string[];
  info: { lines: number };
}

export function parseBatchCsv(input: string): ParsedBatch {
  const text = input.replace(/^\uFEFF/, "");
  const delimiter = delimiterOf(text);
  let parsed: Parsed[];
  try {
    parsed = parse(text, {
      delimiter,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
    }) as unknown as Parsed[];
  } catch (error) {
    if (error instanceof CsvError) {
      const line = (error as CsvError & { lines?: number }).lines ?? 1;
      return { ok: false, problems: [{ line, message: `the file cannot be read as CSV: ${error.message}` }] };
    }
    throw error;
  }
  const header = parsed[0];
  if (!header)
    return { ok: false, problems: [{ line: 1, message: "the file is empty: expected a header row" }] };
  return readRows(header, parsed.slice(1));
}

function readRows(header: Parsed, body: Parsed[]): ParsedBatch {
  const names = header.record.map((f) => f.trim().toLowerCase());
  const headerLine = header.info.lines;
  const problems: FileProblem[] = [];
  const taxColumns = TAX_COLUMNS.filter((c) => names.includes(c));
  const missing: string[] = [];
  if (taxColumns.length === 0) missing.push("a tax_id or tax_number column");
  if (!names.includes("bank_account")) missing.push("a bank_account column");
  if (missing.length > 0) {
    problems.push({ line: headerLine, message: `the header row must name ${missing.join(" and ")}` });
  }
  if (taxColumns.length > 1)
    problems.push({ line: headerLine, message: "give tax_id or tax_number, not both" });
  const unknown = names.filter((n) => !KNOWN_COLUMNS.includes(n));
  const repeated = names.filter((n, i) => names.indexOf(n) !== i);
  if (unknown.length > 0) {
    problems.push({
      line: headerLine,
      message: `unknown column(s) ${unknown.map((n) => `"${n}"`).join(", ")} (known: ${KNOWN_COLUMNS.join(", ")})`,
    });
  }
  if (repeated.length > 0)
    problems.push({ line: headerLine, message: `repeated column(s) ${repeated.join(", ")}` });
  if (problems.length > 0) return { ok: false, problems };
  if (body.length === 0)
    return { ok: false, problems: [{ line: headerLine, message: "the file has no payment rows" }] };

  const col = (name: string) => names.indexOf(name);
  const taxCol = col(taxColumns[0]!);
  const optional = (fields: string[], name: string) => {
    const i = col(name);
    return i < 0 ? null : (fields[i] ?? "") || null;
  };
  const rows: PaymentRow[] = [];
  for (const { record: fields, info } of body) {
    const line = info.lines;
    if (fields.length !== names.length) {
      problems.push({
        line,
        message: `${fields.length} field(s), but the header names ${names.length} columns`,
      });
      continue;
    }
    const taxId = fields[taxCol] ?? "";
    const bankAccount = fields[col("bank_account")] ?? "";
    const empty = [taxId === "" ? names[taxCol] : "", bankAccount === "" ? "bank_account" : ""].filter(
      Boolean,
    );
    if (empty.length > 0) {
      problems.push({ line, message: `no ${empty.join(" and no ")}` });
      continue;
    }
    const rawAmount = optional(fields, "amount");
    const amount = rawAmount === null ? null : normaliseAmount(rawAmount);
    if (amount === undefined) {
      problems.push({ line, message: `amount "${rawAmount}" is not a number` });
      continue;
    }
    rows.push({
      line,
      taxId,
      bankAccount,
      amount,
      currency: optional(fields, "currency")?.toUpperCase() ?? null,
      reference: optional(fields, "reference"),
      name: optional(fields, "name"),
    });
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, rows };
}

/** The tax base number a row names: a tax number's first eight digits, else the value itself. */
export function taxBaseOfRow(taxId: string): string {
  return taxBaseOf(taxId) ?? taxId;
}
