/**
 * The CSV file of `regwatch watch import` (pure): a header naming a `tax_id` (or `tax_number`) or
 * a `reg_number` column, optionally `note` and `name` columns, then one business per row. Comma
 * or semicolon separated, quoted fields and a BOM allowed; a full tax number `xxxxxxxx-y-zz` is
 * reduced to its tax base number, whose check digit is verified. Every row is checked, and every
 * problem is reported with its line number, so a file is fixed in one pass.
 */
import { CsvError, parse } from "csv-parse/sync";
import { checkRegistrationNumber } from "../api/search-query.ts";
import { describeTaxIdProblem, normaliseTaxId } from "../taxid.ts";

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
}

const KNOWN_COLUMNS = ["tax_id", "tax_number", "reg_number", "note", "name"] as const;

export function parseImportCsv(text: string): ParsedImport {
  const records = splitCsv(text);
  const unreadable = records.find((r) => r.problem !== undefined);
  if (unreadable) return { rows: [], problems: [{ line: unreadable.line, message: unreadable.problem! }] };
  const header = records.find((r) => !isBlank(r.fields));
  if (!header) return { rows: [], problems: [{ line: 1, message: "the file is empty: expected a header" }] };
  const names = header.fields.map((f) => f.trim().toLowerCase());
  const problems: ImportProblem[] = [];
  const column = (name: string) => names.indexOf(name);
  const taxName = names.includes("tax_id") ? "tax_id" : "tax_number";
  const taxCol = column(taxName);
  const regCol = column("reg_number");
  const noteCol = column("note");
  const nameCol = column("name");
  if (taxCol < 0 && regCol < 0) {
    return {
      rows: [],
      problems: [
        {
          line: header.line,
          message: "the header must name a tax_id (or tax_number) or a reg_number column",
        },
      ],
    };
  }
  if (names.includes("tax_id") && names.includes("tax_number")) {
    problems.push({ line: header.line, message: "give a tax_id or a tax_number column, not both" });
  }
  const unknown = names.filter((n) => n !== "" && !(KNOWN_COLUMNS as readonly string[]).includes(n));
  const repeated = names.filter((n, i) => n !== "" && names.indexOf(n) !== i);
  if (unknown.length > 0 || repeated.length > 0) {
    const parts = [
      unknown.length > 0
        ? `unknown column(s) ${unknown.join(", ")} (known: ${KNOWN_COLUMNS.join(", ")})`
        : "",
      repeated.length > 0 ? `repeated column(s) ${repeated.join(", ")}` : "",
    ].filter(Boolean);
    problems.push({ line: header.line, message: parts.join("; ") });
  }
  const rows: ImportRow[] = [];
  for (const record of records) {
    if (record.line <= header.line || isBlank(record.fields)) continue;
    const { line, fields } = record;
    if (record.unterminated) {
      problems.push({ line, message: "a quoted field is not closed" });
      continue;
    }
    if (fields.length > names.length) {
      problems.push({
        line,
        message: `${fields.length} fields, but the header names ${names.length} columns`,
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
      problems.push({ line, message: `give a ${taxName} or a reg_number, not both` });
    } else if (taxId !== "") {
      const base = normaliseTaxId(taxId);
      const problem =
        base === undefined
          ? `${taxName} "${taxId}" is neither a tax base number (8 digits) nor a tax number (xxxxxxxx-y-zz)`
          : describeTaxIdProblem(base);
      if (problem || base === undefined) problems.push({ line, message: problem! });
      else rows.push({ line, taxId: base, ...extras });
    } else if (regNumber !== "") {
      const checked = checkRegistrationNumber(regNumber);
      if (checked.ok) rows.push({ line, regNumber: checked.value, ...extras });
      else problems.push({ line, message: checked.problem });
    } else {
      problems.push({ line, message: `no ${taxCol >= 0 ? taxName : "reg_number"} given` });
    }
  }
  return { rows, problems };
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
 * inside), a BOM, any line ending, and the delimiter of the header line: a semicolon, the default
 * of spreadsheets in Hungarian locales, when the header has more of them than commas.
 */
export function splitCsv(text: string): CsvRecord[] {
  const body = text.replace(/^\uFEFF/, "");
  const headerLine = body.split(/\r?\n/, 1)[0] ?? "";
  const delimiter = count(headerLine, ";") > count(headerLine, ",") ? ";" : ",";
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
