/**
 * Checks every changed item before any of it reaches SQL. Postgres would silently turn an impossible
 * date such as 2025-02-30 into 2025-03-02, and a NUL character fails the whole statement, so a value
 * that is not exactly what the registry's contract promises is set aside here, named, with its reason.
 */
import type { ReceivedChange } from "../api/watch-client.ts";
import type { ChangedItem } from "../api/watch-schemas.ts";
import { type Interval, isValidDate } from "../dates.ts";
import type { InvalidItemRow } from "../db/rows.ts";

/** An item set aside, with its reason: stored as db/ declares it. */
export type InvalidItem = InvalidItemRow;

export interface ValidatedItems {
  valid: ReceivedChange[];
  invalid: InvalidItem[];
}

const TAX_ID = /^\d{8}$/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The reason an item cannot be stored as it is, or undefined when it can. */
export function itemProblem(item: ChangedItem): string | undefined {
  if (!isValidDate(item.change)) return `change date ${JSON.stringify(item.change)} is not a calendar date`;
  if (!TAX_ID.test(item.tax_id)) return `tax_id ${JSON.stringify(item.tax_id)} is not 8 digits`;
  const texts: [string, string][] = [
    ["chapter", item.chapter],
    ["path", item.path],
    ...item.changed_headings.map((h, i): [string, string] => [`changed_headings[${i}]`, h]),
  ];
  for (const [field, text] of texts) {
    const problem = textProblem(text);
    if (problem) return `${field} ${problem}`;
  }
  return undefined;
}

/** NUL cannot be stored in text or jsonb; U+FFFD is what a decoder leaves for invalid bytes. */
export function textProblem(text: string): string | undefined {
  if (text.includes("\u0000")) return "contains a NUL character";
  if (text.includes("\uFFFD")) return "contains bytes that are not valid UTF-8";
  if (LONE_SURROGATE.test(text)) return "contains an unpaired surrogate";
  return undefined;
}

/**
 * A change dated outside the interval that was asked is not evidence about that interval: a
 * registry answering for 2026-03 with a change of 2999-01-01 would otherwise pin the business's
 * profile for ever. Such an item is set aside like any invalid one, so its days stay uncovered
 * until the registry answers cleanly or an operator accepts them.
 */
export function dateProblem(item: ChangedItem, asked: Interval): string | undefined {
  if (item.change >= asked.start && item.change <= asked.end) return undefined;
  return `change date ${item.change} is outside the asked interval ${asked.start}..${asked.end}`;
}

export function validateItems(items: readonly ReceivedChange[], asked: Interval): ValidatedItems {
  const result: ValidatedItems = { valid: [], invalid: [] };
  items.forEach((received, index) => {
    const { item, raw } = received;
    const problem = itemProblem(item) ?? dateProblem(item, asked) ?? rawProblem(raw);
    if (problem) {
      result.invalid.push({ index, changeDate: item.change, taxId: item.tax_id, reason: problem, raw });
    } else {
      result.valid.push(received);
    }
  });
  return result;
}

/** The raw item is stored as jsonb: a NUL anywhere in it (keys included) cannot be. */
function rawProblem(raw: unknown): string | undefined {
  const text = JSON.stringify(raw);
  if (text.includes("\\u0000")) return "a field of the item contains a NUL character";
  if (text.includes("\uFFFD")) return "a field of the item contains bytes that are not valid UTF-8";
  return undefined;
}
