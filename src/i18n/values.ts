/**
 * A heading's value as a reader of a language reads it, pure: a status in words, nothing as
 * "(none)" in the language, accounts, names and other text as src/changes/format.ts shows them
 * (they are the registry's own text, the same in every language).
 */
import { displayValue } from "../changes/format.ts";
import { removedMarkerOf } from "../removed-marker.ts";
import type { Translator } from "./messages.ts";
import { isStatusHeading, statusValueWords } from "./words.ts";

export function valueText(i18n: Translator, heading: string, value: unknown): string {
  if (value === null || value === undefined) return i18n.t("value.none");
  const removed = removedMarkerOf(value);
  if (removed) return removed.on ? i18n.t("value.removedOn", { on: removed.on }) : i18n.t("value.removed");
  if (isStatusHeading(heading)) {
    const words = statusValueWords(i18n, value);
    if (words !== undefined) return words;
  }
  return displayValue(value);
}
