/**
 * The CSV file of `regwatch watch import` (pure): a header naming a tax number column or a
 * registration number column, optionally name and note columns, then one business per row. The
 * header is found and its columns named as a payment file's are (src/payments/read/): among the
 * first lines (title lines above it are passed over), separated by a semicolon, comma or tab,
 * compared without case, accents or punctuation, in English (tax_id, tax_number, reg_number, name,
 * note) or as Hungarian exports write them (Adószám, Cégjegyzékszám, Partner, Név, Megjegyzés...);
 * other columns are ignored and named. Quoted fields and a BOM allowed; a full tax number
 * `xxxxxxxx-y-zz` is reduced to its tax base number, whose check digit is verified. Every row is
 * checked, and every problem is reported with its line number, so a file is fixed in one pass.
 */
import { CsvError, parse } from "csv-parse/sync";
import { checkRegistrationNumber } from "../api/search-query.ts";
import { FIELD_NAMES, headerKey } from "../formats/read/columns.ts";
import { findHeaderWhere } from "../formats/read/header.ts";
import { describeTaxIdProblem, foreignSaid, normaliseTaxId } from "../taxid.ts";

interface RowExtras {
  note: string | null;
  /** The business's name as the file gives it; kept so a business the search cannot find is named. */
  name: string | null;
}

export type ImportRow =
  | ({ line: number; taxId: string } & RowExtras)
  | ({ line: number; regNumber: string } & RowExtras);

export interface ImportProblem {
  line: number;
  message: string;
}

export interface ParsedImport {
  rows: ImportRow[];
  problems: ImportProblem[];
  /** Headers of columns the import does not read, as the file writes them. */
  ignored?: string[];
}

type ImportColumn = "tax_id" | "reg_number" | "name" | "note";

/** The names each column goes by; the tax number's and the name's are the payment reader's. */
const COLUMN_NAMES: Record<ImportColumn, readonly string[]> = {
  tax_id: FIELD_NAMES.tax_id,
  reg_number: [
    "reg_number",
    "registration_number",
    "registration number",
    "cégjegyzékszám",
    "cégjegyzék szám",
    "cégjegyzékszáma",
    "nyilvántartási szám",
    "nyilvántartási száma",
    "nyilvántartásba vételi szám",
  ],
  name: [...FIELD_NAMES.name, "cégnév", "cég neve", "szállító neve", "szállító", "vevő neve"],
  note: ["note", "megjegyzés"],
};

const COLUMN_OF_KEY = new Map<string, ImportColumn>();
for (const [column, names] of Object.entries(COLUMN_NAMES) as [ImportColumn, readonly string[]][]) {
  for (const name of names) COLUMN_OF_KEY.set(headerKey(name), column);
}

/** Which column a header names, if any. */
export function importColumnOf(header: string): ImportColumn | undefined {
  return COLUMN_OF_KEY.get(headerKey(header));
}

/** User-visible sentences of the import's header ({…} are filled in). */
export const IMPORT_HEADER_TEXT = {
  noKeyColumn:
    "the header must name a tax number column (tax_id, tax_number, Adószám) or a registration number column (reg_number, Cégjegyzékszám)",
  empty: "the file is empty: expected a header",
  sameColumnTwice: "columns {headers} all give the {column} column: keep one of them",
} as const;

const isKey = (header: string) => {
  const column = importColumnOf(header);
  return column === "tax_id" || column === "reg_number";
};

export function parseImportCsv(text: string): ParsedImport {
  const body = text.replace(/^\uFEFF/, "");
  if (body.trim() === "") return { rows: [], problems: [{ line: 1, message: IMPORT_HEADER_TEXT.empty }] };
  const found = findHeaderWhere(body, (headers) => headers.some(isKey));
  const records = splitCsv(body, found?.delimiter);
  const unreadable = records.find((r) => r.problem !== undefined);
  if (unreadable) return { rows: [], problems: [{ line: unreadable.line, message: unreadable.problem! }] };
  const header = found && records.find((r) => r.line === found.line);
  if (!found || !header) {
    const first = records.find((r) => !isBlank(r.fields))?.line ?? 1;
    return { rows: [], problems: [{ line: first, message: IMPORT_HEADER_TEXT.noKeyColumn }] };
  }
  const written = header.fields.map((f) => f.trim());
  const problems: ImportProblem[] = [];
  const at: Partial<Record<ImportColumn, number>> = {};
  const ignored: string[] = [];
  const seen = new Map<ImportColumn, string[]>();
  written.forEach((name, index) => {
    const column = importColumnOf(name);
    if (column === undefined) {
      if (name !== "") ignored.push(name);
      return;
    }
    seen.set(column, [...(seen.get(column) ?? []), name]);
    at[column] ??= index;
  });
  for (const [column, headers] of seen) {
    if (headers.length > 1) {
      const message = IMPORT_HEADER_TEXT.sameColumnTwice
        .replace("{headers}", headers.map((h) => `"${h}"`).join(", "))
        .replace("{column}", column);
      problems.push({ line: header.line, message });
    }
  }
  const taxCol = at.tax_id ?? -1;
  const regCol = at.reg_number ?? -1;
  const noteCol = at.note ?? -1;
  const nameCol = at.name ?? -1;
  const taxName = taxCol >= 0 ? written[taxCol]! : "tax_id";
  const regName = regCol >= 0 ? written[regCol]! : "reg_number";
  const rows: ImportRow[] = [];
  for (const record of records) {
    if (record.line <= header.line || isBlank(record.fields)) continue;
    const { line, fields } = record;
    if (record.unterminated) {
      problems.push({ line, message: "a quoted field is not closed" });
      continue;
    }
    if (fields.length > written.length) {
      problems.push({
        line,
        message: `${fields.length} fields, but the header names ${written.length} columns`,
      });
      continue;
    }
    const taxId = taxCol >= 0 ? (fields[taxCol] ?? "").trim() : "";
    const regNumber = regCol >= 0 ? (fields[regCol] ?? "").trim() : "";
    const extras: RowExtras = {
      note: noteCol >= 0 ? (fields[noteCol] ?? "").trim() || null : null,
      name: nameCol >= 0 ? (fields[nameCol] ?? "").trim() || null : null,
    };
    if (taxId !== "" && regNumber !== "") {
      problems.push({ line, message: `give a ${taxName} or a ${regName}, not both` });
    } else if (taxId !== "") {
      const base = normaliseTaxId(taxId);
      const problem =
        base === undefined
          ? (foreignSaid(taxId)?.text ??
            `${taxName} "${taxId}" is neither a tax base number (8 digits) nor a tax number (xxxxxxxx-y-zz)`)
          : describeTaxIdProblem(base);
      if (problem || base === undefined) problems.push({ line, message: problem! });
      else rows.push({ line, taxId: base, ...extras });
    } else if (regNumber !== "") {
      const checked = checkRegistrationNumber(regNumber);
      if (checked.ok) rows.push({ line, regNumber: checked.value, ...extras });
      else problems.push({ line, message: checked.problem });
    } else {
      problems.push({ line, message: `no ${taxCol >= 0 ? taxName : regName} given` });
    }
  }
  return { rows, problems, ...(ignored.length > 0 ? { ignored } : {}) };
}

interface CsvRecord {
  /** Line on which the record starts, counting from 1. */
  line: number;
  fields: string[];
  unterminated: boolean;
  /** Why the record could not be read, when it could not. */
  problem?: string;
}

/**
 * Records of a CSV file through csv-parse: quoted fields (with doubled quotes and line breaks
 * inside), a BOM, any line ending, and the delimiter given (the header's), else that of the first
 * line: a semicolon, the default of spreadsheets in Hungarian locales, when it has more of them
 * than commas.
 */
export function splitCsv(text: string, given?: string): CsvRecord[] {
  const body = text.replace(/^\uFEFF/, "");
  const headerLine = body.split(/\r?\n/, 1)[0] ?? "";
  const delimiter = given ?? (count(headerLine, ";") > count(headerLine, ",") ? ";" : ",");
  try {
    const parsed = parse(body, {
      delimiter,
      info: true,
      relax_column_count: true,
      record_delimiter: ["\r\n", "\n", "\r"],
      skip_empty_lines: false,
    }) as unknown as { record: string[]; info: { lines: number } }[];
    // csv-parse reports the line a record ends on; a quoted line break moves its start up.
    return parsed.map(({ record, info }) => ({
      line: info.lines - record.reduce((n, field) => n + count(field, "\n"), 0),
      fields: record,
      unterminated: false,
    }));
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    const line = (error as CsvError & { lines?: number }).lines ?? 1;
    // Nothing of a file that cannot be read to its end is used: the problem is named and the import stops.
    return [{ line, fields: [], unterminated: true, problem: describeCsvError(error) }];
  }
}

function describeCsvError(error: CsvError): string {
  return error.code === "CSV_QUOTE_NOT_CLOSED"
    ? "a quoted field is not closed"
    : `the file is not valid CSV here (${error.message.replace(/\s+/g, " ")})`;
}

function count(text: string, ch: string): number {
  let n = 0;
  for (const c of text) if (c === ch) n++;
  return n;
}

function isBlank(fields: readonly string[]): boolean {
  return fields.every((f) => f.trim() === "");
}

/** Problems as lines for a message, in file order. */
export function describeImportProblems(file: string, problems: readonly ImportProblem[]): string {
  const sorted = [...problems].sort((a, b) => a.line - b.line);
  return [
    `${file}: ${sorted.length} problem(s), nothing was changed:`,
    ...sorted.map((p) => `  line ${p.line}: ${p.message}`),
  ].join("\n");
}
