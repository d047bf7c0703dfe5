/** Plain-text rendering of search records for the terminal (pure). */
import type { BusinessRecord } from "../api/search-schemas.ts";
import { statusInWords } from "../changes/status-words.ts";
import { terminalSafe } from "../formats/terminal-text.ts";
import { taxBaseOf } from "../taxid.ts";

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

/** A business's status by the newest dated evidence, keyed by tax base number (lookup reads it). */
export interface StatusEvidence {
  statusCode: number;
  statusOn: string;
  statusSource: string;
  /** The business type the evidence is of: a record of another type (the number's former business) keeps its own status. */
  type?: string | null;
}

const SOURCE_WORDS: Record<string, string> = {
  change_file: "change file",
  search: "search",
  profile: "profile",
};

/** "ceased (2026-12-06, change file)": the status with the day and source of its evidence. */
export function statusWithEvidence(e: StatusEvidence): string {
  return `${statusInWords(e.statusCode)} (${e.statusOn}, ${SOURCE_WORDS[e.statusSource] ?? e.statusSource})`;
}

type Column = readonly [string, (r: BusinessRecord, status: StatusEvidence | undefined) => string];

const COLUMNS: ReadonlyArray<Column> = [
  ["TYPE", (r) => typeInWords(r.type)],
  ["STATUS", (r, status) => (status ? statusWithEvidence(status) : statusInWords(r.status_code))],
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

/**
 * A table with one row per record and a header; `statuses` (by tax base number) gives each
 * business's status by the newest evidence regwatch holds, in place of the record's own.
 */
export function formatRecordTable(
  records: readonly BusinessRecord[],
  statuses: ReadonlyMap<string, StatusEvidence> = new Map(),
): string {
  return formatTable(
    COLUMNS.map(([title]) => title),
    records.map((r) => {
      const base = r.tax_number ? taxBaseOf(r.tax_number) : undefined;
      const found = base === undefined ? undefined : statuses.get(base);
      const status = found && (found.type == null || found.type === r.type) ? found : undefined;
      return COLUMNS.map(([, get]) => get(r, status));
    }),
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
