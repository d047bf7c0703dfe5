/**
 * How changes read, wherever a person reads them: the change feed on a terminal (a line per
 * changed heading), alert e-mails and the text of webhook bodies all format a heading's values
 * here, so `status` reads as words, bank accounts as account numbers and representatives as names
 * in each. CSV keeps whole values.
 */

import { terminalSafe } from "../formats/terminal-text.ts";
import { CsvFormat } from "../formats/write/csv-writer.ts";
import { REMOVED_TEXT, removedMarkerOf } from "../removed-marker.ts";
import type { FeedRow } from "./sql/change-feed.ts";
import { statusInWords } from "./status-words.ts";
import { unreadWhy } from "./unread.ts";
import { bankAccountsOf } from "./values.ts";

const SHORT = 48;

/** A value as a person reads it: text as is, account lists as accounts, other JSON as JSON. */
export function displayValue(value: unknown): string {
  if (value === null || value === undefined) return "(none)";
  if (typeof value === "string") return value;
  const removed = removedMarkerOf(value);
  if (removed) return removed.on ? `${REMOVED_TEXT.slice(0, -1)} on ${removed.on})` : REMOVED_TEXT;
  const accounts = bankAccountsOf(value);
  if (accounts) return accounts.join(", ");
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) return value.join(", ");
  if (Array.isArray(value) && value.every((v) => typeof v === "object" && v !== null && "name" in v)) {
    return value.map((v) => String((v as { name: unknown }).name)).join(", ");
  }
  return JSON.stringify(value);
}

/** Headings whose value is the registry's status code (change files say status, search records status_code). */
const STATUS_HEADINGS = new Set(["status", "status_code"]);

/** A heading's value as a person reads it: a status code in words, else as displayValue. */
export function headingValue(heading: string, value: unknown): string {
  if (STATUS_HEADINGS.has(heading)) {
    const code = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value;
    if (typeof code === "number" && Number.isInteger(code)) return statusInWords(code);
  }
  return displayValue(value);
}

/** What a business is called where no source knows its name. */
export const NAME_UNKNOWN = "(name unknown)";

/** The business as a person reads it: its name (or that it is unknown), then the tax id. */
export function businessLabel(name: string | null | undefined, taxId: string): string {
  return `${name?.trim() || NAME_UNKNOWN} (${taxId})`;
}

/** Where the change file gave a new value but not the old one. */
export const OLD_VALUE_UNKNOWN = "(old value not given)";

/**
 * One changed heading: `heading: old → new`, or that its values are not read yet. `shorten`
 * cuts each value to a terminal's width, `maxChars` to a given length (a chat line). An old
 * value the file did not give (`oldValueKnown` false) is said to be unknown, never shown as none.
 */
export function changeText(
  change: { heading: string; oldValue?: unknown; newValue?: unknown; oldValueKnown?: boolean },
  options: { shorten?: boolean; maxChars?: number } = {},
): string {
  if (!("oldValue" in change) && !("newValue" in change))
    return `${change.heading}: changed (values not parsed yet)`;
  const max = options.maxChars ?? (options.shorten ? SHORT : undefined);
  const value = (v: unknown) => {
    const text = headingValue(change.heading, v);
    return max === undefined ? text : shorten(text, max);
  };
  const before = change.oldValueKnown === false ? OLD_VALUE_UNKNOWN : value(change.oldValue);
  return `${change.heading}: ${before} → ${value(change.newValue)}`;
}

/** An unread feed row's words: it changed, and why its values are not known. */
export function notReadText(r: FeedRow): string {
  return `changed, not read (${unreadWhy(r.heading, r)})`;
}

/** A feed row's heading change, or, when its values were not read, that it changed and why not. */
function feedChangeText(r: FeedRow, options: { shorten: boolean }): string {
  if (r.valuesRead) return changeText(r, options);
  return `${r.heading}: ${notReadText(r)}`;
}

/**
 * A feed row's before and after as a table shows them ("" for none): an old value the file did
 * not give says so, and an unread change says it changed and why its values are not known.
 */
export function feedCells(r: FeedRow): { before: string; after: string } {
  if (!r.valuesRead) return { before: "", after: notReadText(r) };
  const shown = (v: unknown) => (v === null || v === undefined ? "" : headingValue(r.heading, v));
  return { before: r.oldValueKnown ? shown(r.oldValue) : OLD_VALUE_UNKNOWN, after: shown(r.newValue) };
}

export function shorten(text: string, max = SHORT): string {
  const flat = text.replace(/\s+/g, " ");
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

export const AMBIGUOUS_NOTE = "(order within the day unknown)";

/**
 * One line per row; every text that came from the registry or another system is shown with its
 * control characters escaped, so a value cannot move the cursor or forge a line.
 */
export function feedLines(rows: readonly FeedRow[], options: { shorten: boolean }): string {
  return rows
    .map((r) => {
      const who = terminalSafe(businessLabel(r.businessName, r.taxId));
      const lists = `[${r.listNames.map(terminalSafe).join(", ")}]`;
      const note = r.orderAmbiguous ? `  ${AMBIGUOUS_NOTE}` : "";
      return `${r.changeDate}  ${who}  ${lists}  ${terminalSafe(feedChangeText(r, options))}${note}\n`;
    })
    .join("");
}

/** Text as is, other JSON as JSON text, so a spreadsheet gets the whole value. */
function csvValue(value: unknown): string {
  if (value === null || value === undefined) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

const FEED_CSV_HEADER = [
  "change_date",
  "tax_id",
  "business_name",
  "list_names",
  "heading",
  "old_value",
  "new_value",
  "order_ambiguous",
  "old_value_known",
  "values_read",
];

/**
 * The feed as CSV with whole values, every cell through the export's own format (a cell that
 * would start a formula neutralised, as the console's /changes.csv does); `terminal` when it is
 * read on a terminal: control characters in a cell are then shown escaped.
 */
export function feedCsv(rows: readonly FeedRow[], options: { terminal?: boolean } = {}): string {
  const csv = new CsvFormat({ terminal: options.terminal ?? false });
  let out = csv.line(FEED_CSV_HEADER);
  for (const r of rows) {
    out += csv.line([
      r.changeDate,
      r.taxId,
      r.businessName ?? "",
      r.listNames.join(";"),
      r.heading,
      csvValue(r.oldValue),
      csvValue(r.newValue),
      r.orderAmbiguous ? "true" : "false",
      r.oldValueKnown ? "true" : "false",
      r.valuesRead ? "true" : "false",
    ]);
  }
  return out;
}
