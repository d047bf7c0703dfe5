/** How the change feed reads: a line per changed heading on a terminal, whole values in CSV. */
import type { FeedRow } from "../db/change-feed.ts";
import { terminalSafe } from "./terminal-text.ts";
import { bankAccountsOf } from "./values.ts";

const SHORT = 48;

/** A value as a person reads it: text as is, account lists as accounts, other JSON as JSON. */
export function displayValue(value: unknown): string {
  if (value === null || value === undefined) return "(none)";
  if (typeof value === "string") return value;
  const accounts = bankAccountsOf(value);
  if (accounts) return accounts.join(", ");
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) return value.join(", ");
  if (Array.isArray(value) && value.every((v) => typeof v === "object" && v !== null && "name" in v)) {
    return value.map((v) => String((v as { name: unknown }).name)).join(", ");
  }
  return JSON.stringify(value);
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
  const cut = (v: unknown) => terminalSafe(options.shorten ? shorten(displayValue(v)) : displayValue(v));
  return rows
    .map((r) => {
      const who = `${terminalSafe(r.businessName ?? "(name unknown)")} (${r.taxId})`;
      const lists = `[${r.listNames.map(terminalSafe).join(", ")}]`;
      const note = r.orderAmbiguous ? `  ${AMBIGUOUS_NOTE}` : "";
      return `${r.changeDate}  ${who}  ${lists}  ${terminalSafe(r.heading)}: ${cut(r.oldValue)} → ${cut(r.newValue)}${note}\n`;
    })
    .join("");
}

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Text as is, other JSON as JSON text, so a spreadsheet gets the whole value. */
function csvValue(value: unknown): string {
  if (value === null || value === undefined) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

export function feedCsv(rows: readonly FeedRow[]): string {
  const header = "change_date,tax_id,business_name,list_names,heading,old_value,new_value,order_ambiguous\n";
  return (
    header +
    rows
      .map(
        (r) =>
          `${[
            r.changeDate,
            r.taxId,
            r.businessName ?? "",
            r.listNames.join(";"),
            r.heading,
            csvValue(r.oldValue),
            csvValue(r.newValue),
            r.orderAmbiguous ? "true" : "false",
          ]
            .map(csvField)
            .join(",")}\n`,
      )
      .join("")
  );
}
