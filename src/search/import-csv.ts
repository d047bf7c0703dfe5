/**
 * The CSV file of `regwatch watch import` (pure): a header naming a `tax_id` or a `reg_number`
 * column (optionally a `note` column), then one business per row. Every row is checked, and every
 * problem is reported with its line number, so a file is fixed in one pass.
 */
import { describeTaxIdProblem } from "../taxid.ts";
import { checkRegistrationNumber } from "./query.ts";

export type ImportRow =
  | { line: number; taxId: string; note: string | null }
  | { line: number; regNumber: string; note: string | null };

export interface ImportProblem {
  line: number;
  message: string;
}

export interface ParsedImport {
  rows: ImportRow[];
  problems: ImportProblem[];
}

const KNOWN_COLUMNS = ["tax_id", "reg_number", "note"] as const;

export function parseImportCsv(text: string): ParsedImport {
  const records = splitCsv(text.replace(/^\uFEFF/, ""));
  const header = records.find((r) => !isBlank(r.fields));
  if (!header) return { rows: [], problems: [{ line: 1, message: "the file is empty: expected a header" }] };
  const names = header.fields.map((f) => f.trim().toLowerCase());
  const problems: ImportProblem[] = [];
  const column = (name: string) => names.indexOf(name);
  const taxCol = column("tax_id");
  const regCol = column("reg_number");
  const noteCol = column("note");
  if (taxCol < 0 && regCol < 0) {
    return {
      rows: [],
      problems: [{ line: header.line, message: "the header must name a tax_id or a reg_number column" }],
    };
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
    const note = noteCol >= 0 ? (fields[noteCol] ?? "").trim() || null : null;
    if (taxId !== "" && regNumber !== "") {
      problems.push({ line, message: "give a tax_id or a reg_number, not both" });
    } else if (taxId !== "") {
      const problem = describeTaxIdProblem(taxId);
      if (problem) problems.push({ line, message: problem });
      else rows.push({ line, taxId, note });
    } else if (regNumber !== "") {
      const checked = checkRegistrationNumber(regNumber);
      if (checked.ok) rows.push({ line, regNumber: checked.value, note });
      else problems.push({ line, message: checked.problem });
    } else {
      problems.push({ line, message: `no ${taxCol >= 0 ? "tax_id" : "reg_number"} given` });
    }
  }
  return { rows, problems };
}

interface CsvRecord {
  /** Line on which the record starts, counting from 1. */
  line: number;
  fields: string[];
  unterminated: boolean;
}

/** RFC 4180 records: comma-separated, double quotes around fields with commas, quotes or newlines. */
export function splitCsv(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let line = 1;
  let start = 1;
  let fields: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else {
        if (ch === "\n") line++;
        field += ch;
      }
    } else if (ch === '"' && field.trim() === "") {
      field = "";
      quoted = true;
    } else if (ch === ",") {
      fields.push(field);
      field = "";
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      fields.push(field);
      records.push({ line: start, fields, unterminated: false });
      fields = [];
      field = "";
      line++;
      start = line;
    } else field += ch;
  }
  if (field !== "" || fields.length > 0 || quoted) {
    fields.push(field);
    records.push({ line: start, fields, unterminated: quoted });
  }
  return records;
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
