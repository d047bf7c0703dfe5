/** What `regwatch watch import` says after its summary line: how the file was read. */
import { terminalSafe } from "../formats/terminal-text.ts";
import type { ImportText } from "../search/import-file.ts";

/** User-visible sentences of this module ({…} are filled in). */
export const IMPORT_NOTES_TEXT = {
  encoding: "{file}: read as {encoding}",
  ignored: "{file}: ignored column(s) {columns}",
  names:
    "{file}: {count} name(s) kept as given in {base}; the registry's own name replaces each once a lookup or a change file names the business",
} as const;

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}

/** Lines (each ending in a newline) about the file's encoding, the columns left out and the names kept. */
export function importNotes(
  read: ImportText,
  ignored: readonly string[],
  names: number,
  file: string,
): string {
  const lines: string[] = [];
  const shown = terminalSafe(file);
  if (read.encoding !== "utf-8")
    lines.push(fill(IMPORT_NOTES_TEXT.encoding, { file: shown, encoding: read.encoding }));
  if (ignored.length > 0) {
    lines.push(
      fill(IMPORT_NOTES_TEXT.ignored, {
        file: shown,
        columns: ignored.map((c) => `"${terminalSafe(c)}"`).join(", "),
      }),
    );
  }
  if (names > 0) {
    const base = terminalSafe(file.split(/[\\/]/).pop() ?? file);
    lines.push(fill(IMPORT_NOTES_TEXT.names, { file: shown, count: String(names), base }));
  }
  return lines.map((l) => `${l}\n`).join("");
}
