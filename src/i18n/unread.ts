/**
 * Why a changed heading's values are not known, in the reader's language (pure): the reason codes
 * of src/changes/unread.ts, each a catalog message, with the heading said as people say it.
 */

import { shortError } from "../changes/evidence.ts";
import { type UnreadFile, unreadReason } from "../changes/unread.ts";
import type { MessageKey, Translator } from "./messages.ts";
import { wordOf } from "./words.ts";

export function unreadWords(i18n: Translator, heading: string, file: UnreadFile): string {
  const reason = unreadReason(file);
  const error =
    reason === "failed"
      ? shortError(file.fileError ?? null)
      : reason === "parse_failed"
        ? shortError(file.parseError ?? null)
        : "";
  return i18n.t(`reason.${reason}` as MessageKey, { error, heading: wordOf(i18n, "heading", heading) });
}

/** "unknown since <day> (changed, not read)", the day as the reader writes days. */
export function unknownSinceWords(i18n: Translator, day: string, formatDay: (day: string) => string): string {
  return i18n.t("unread.since", { day: formatDay(day) });
}
