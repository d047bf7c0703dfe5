/**
 * The place a /changes page starts after (or ends before), carried in its links: a row's key
 * (day, tax id, heading, same-day order, change id) as base64url JSON, so a heading of any text
 * travels safely. Decoding checks every part; anything else is not a cursor. Pure.
 */

import type { FeedKey } from "../../changes/sql/change-feed.ts";
import { isValidDate } from "../../dates.ts";

/** What the route accepts before the page decodes it: base64url only, bounded. */
export const CURSOR_PATTERN = "^[A-Za-z0-9_-]{1,800}$";
export const CURSOR = { type: "string", maxLength: 800, pattern: CURSOR_PATTERN } as const;

const MAX_INT4 = 2_147_483_647;

export function encodeCursor(key: FeedKey): string {
  const parts = [key.changeDate, key.taxId, key.heading, key.dayOrder, key.changeId];
  return Buffer.from(JSON.stringify(parts), "utf8").toString("base64url");
}

/** The key a cursor holds, or null when it holds none (a link edited by hand, or cut short). */
export function decodeCursor(text: string): FeedKey | null {
  if (!new RegExp(CURSOR_PATTERN).test(text)) return null;
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  if (!Array.isArray(parts) || parts.length !== 5) return null;
  const [changeDate, taxId, heading, dayOrder, changeId] = parts as unknown[];
  // No control character: Postgres refuses NUL in text, and none belongs in a key.
  const oneLine = (v: unknown, max: number): v is string =>
    typeof v === "string" &&
    v.length > 0 &&
    v.length <= max &&
    [...v].every((ch) => ch.charCodeAt(0) >= 0x20 && ch.charCodeAt(0) !== 0x7f);
  if (typeof changeDate !== "string" || !isValidDate(changeDate)) return null;
  if (!oneLine(taxId, 40) || !oneLine(heading, 200)) return null;
  if (dayOrder !== null && !(Number.isInteger(dayOrder) && Math.abs(dayOrder as number) <= MAX_INT4))
    return null;
  if (!Number.isSafeInteger(changeId) || (changeId as number) < 1) return null;
  return {
    changeDate,
    taxId,
    heading,
    dayOrder: dayOrder as number | null,
    changeId: changeId as number,
  };
}
