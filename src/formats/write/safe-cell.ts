/**
 * Text that leaves regwatch for a spreadsheet (a CSV download, the rows BI tools read from the
 * database) must not be run as a formula when someone opens it: a cell that starts with `=`, `+`,
 * `-` or `@` is evaluated by Excel, LibreOffice and Google Sheets, and a leading tab or carriage
 * return is stripped by some of them before that test. Such a cell gets a leading apostrophe,
 * which the spreadsheet shows as text and hides. A cell that is just a number (a negative amount
 * such as `-1250.50`) is left as it is, so it stays a number for sums.
 */

const FORMULA_START = /^[=+\-@\t\r]/;
/** A plain decimal with an optional sign: what a spreadsheet reads as a number, never a formula. */
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:[.,]\d+)?|[.,]\d+)$/;

/** The text as a spreadsheet may safely open it. */
export function safeCell(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

/** As safeCell, keeping null (an absent value) as null. */
export function safeCellOrNull(text: string | null): string | null {
  return text === null ? null : safeCell(text);
}
