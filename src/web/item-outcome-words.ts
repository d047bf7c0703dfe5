/**
 * A list member's last outcome as a reader's words, pure: the reconciler stores its own English
 * note ("added", "already on the list (409)") or the registry's text; the page says what happened
 * in the reader's language and keeps the registry's own words apart, as they were.
 */
import type { MessageKey, Translator } from "../i18n/messages.ts";

const SAID: Record<string, MessageKey | null> = {
  // The state beside it already says the item is watched or gone.
  added: null,
  removed: null,
  "already on the list (409)": "itemOutcome.already",
  "already gone from the list (404)": "itemOutcome.alreadyGone",
};

export interface OutcomeWords {
  words: string;
  /** What the registry (or the request) said, shown as it was; null when the words say it all. */
  reply: string | null;
}

export function itemOutcomeWords(
  i18n: Translator,
  code: number | null,
  message: string | null,
): OutcomeWords | null {
  if (!message) return null;
  if (message in SAID) {
    const key = SAID[message];
    return key ? { words: i18n.t(key), reply: null } : null;
  }
  if (code !== null) return { words: i18n.t("itemOutcome.refused", { code: String(code) }), reply: message };
  return { words: i18n.t("itemOutcome.failed"), reply: message };
}
