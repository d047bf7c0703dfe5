/**
 * A heading's value as a reader of a language reads it, pure: a status and a business form in
 * words, a calendar day as the language writes it, nothing as "(none)" in the language;
 * accounts, names and other text as src/changes/format.ts shows them (the registry's own text).
 */
import { displayValue } from "../changes/format.ts";
import { removedMarkerOf } from "../removed-marker.ts";
import { formatsFor } from "./format.ts";
import type { Translator } from "./messages.ts";
import { isStatusHeading, statusValueWords } from "./words.ts";

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** Headings whose value is the registry's code of the business form (`companies`, `self_employed`). */
const FORM_HEADINGS = new Set(["type", "business_type"]);

export function valueText(i18n: Translator, heading: string, value: unknown): string {
  if (value === null || value === undefined) return i18n.t("value.none");
  const removed = removedMarkerOf(value);
  if (removed) return removed.on ? i18n.t("value.removedOn", { on: removed.on }) : i18n.t("value.removed");
  if (isStatusHeading(heading)) {
    const words = statusValueWords(i18n, value);
    if (words !== undefined) return words;
  }
  const form = `businessType.${value}`;
  if (typeof value === "string" && FORM_HEADINGS.has(heading) && i18n.has(form)) return i18n.t(form);
  // A day has no zone: any zone formats it alike.
  if (typeof value === "string" && DAY.test(value)) return formatsFor(i18n.locale, "UTC").day(value);
  return displayValue(value);
}
