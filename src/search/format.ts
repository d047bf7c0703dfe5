/** Plain-text rendering of search records for the terminal (pure). */
import type { BusinessRecord } from "../api/search-schemas.ts";
import { statusInWords } from "../changes/status-words.ts";
import { terminalSafe } from "../formats/terminal-text.ts";

const TYPE_WORDS: Record<string, string> = {
  companies: "company",
  self_employed: "sole proprietor",
  budget_orgs: "budget organisation",
  civil_orgs: "civil organisation",
};

export function typeInWords(type: string | null | undefined): string {
  if (!type) return "";
  return TYPE_WORDS[type] ?? type;
}

const COLUMNS: ReadonlyArray<readonly [string, (r: BusinessRecord) => string]> = [
  ["TYPE", (r) => typeInWords(r.type)],
  ["STATUS", (r) => statusInWords(r.status_code)],
  ["NAME", (r) => r.full_name ?? r.short_name ?? ""],
  ["SEAT", (r) => r.address ?? ""],
  ["TAX NUMBER", (r) => r.tax_number ?? ""],
  ["REG. NUMBER", (r) => r.registration_number ?? ""],
];

/** Longest cell shown in full; longer names and addresses are shortened so rows stay on one line. */
const MAX_CELL = 60;

/** A cell on one line, with whatever control characters remain shown escaped (registry text reaches it). */
function cell(text: string): string {
  const flat = terminalSafe(text.replace(/\s+/g, " ").trim());
  return flat.length > MAX_CELL ? `${flat.slice(0, MAX_CELL - 1)}…` : flat;
}

/** A table with one row per record and a header. */
export function formatRecordTable(records: readonly BusinessRecord[]): string {
  return formatTable(
    COLUMNS.map(([title]) => title),
    records.map((r) => COLUMNS.map(([, get]) => get(r))),
  );
}

/** Columns padded to their widest cell, two blanks apart; long cells shortened. */
export function formatTable(headers: readonly string[], body: readonly (readonly string[])[]): string {
  const rows = [headers.map(cell), ...body.map((row) => row.map(cell))];
  const widths = headers.map((_, i) => Math.max(...rows.map((row) => row[i]?.length ?? 0)));
  return rows
    .map((row) =>
      row
        .map((text, i) => (i === row.length - 1 ? text : text.padEnd(widths[i]!)))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}
