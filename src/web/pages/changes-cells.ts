/**
 * A change feed row's before and after in the reader's language, pure, for the page and a
 * person's download alike: an old value the file did not give says so, and a change whose values
 * were not read says it changed and why.
 */
import type { FeedRow } from "../../changes/sql/change-feed.ts";
import type { Translator } from "../../i18n/messages.ts";
import { unreadWords } from "../../i18n/unread.ts";
import { valueText } from "../../i18n/values.ts";

export function cellsOf(i18n: Translator, r: FeedRow): { before: string; after: string } {
  if (!r.valuesRead)
    return { before: "", after: i18n.t("changes.notRead", { why: unreadWords(i18n, r.heading, r) }) };
  const shown = (v: unknown) => (v === null || v === undefined ? "" : valueText(i18n, r.heading, v));
  return {
    before: r.oldValueKnown ? shown(r.oldValue) : i18n.t("value.oldUnknown"),
    after: shown(r.newValue),
  };
}
