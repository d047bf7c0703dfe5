/** A business's status code in words (pure), as the change feed, alerts and search print it. */

const STATUS_WORDS: Record<number, string> = { 0: "ceased", 1: "operating", 2: "suspended" };

/** status_code in words; a code the document does not list is shown as received. */
export function statusInWords(code: number | null | undefined): string {
  if (code === null || code === undefined) return "";
  return STATUS_WORDS[code] ?? `code ${code}`;
}
