/**
 * Small pure helpers every template receives: `it.h` formats numbers, money, days and instants in
 * the reader's language and the console's zone and builds links that keep a page's filters;
 * `it.t` is the message catalog; `it.w` says codes as words (`it.w.term` keeps the code for the
 * title attribute, so the people who query the tables still see it).
 */

import { formatsFor } from "../i18n/format.ts";
import type { Locale } from "../i18n/locales.ts";
import { type Translator, translatorFor } from "../i18n/messages.ts";
import { valueText } from "../i18n/values.ts";
import { termOf, type Vocabulary, wordOf } from "../i18n/words.ts";
import { deliveryErrorWords } from "./delivery-error.ts";

/**
 * `base` with the given query parameters; empty values are left out, so a link built from a
 * page's filters stays short. Arrays repeat the parameter.
 */
export function withQuery(base: string, params: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    for (const one of Array.isArray(value) ? value : [value]) {
      if (one === undefined || one === null || one === "") continue;
      search.append(key, String(one));
    }
  }
  const text = search.toString();
  return text ? `${base}?${text}` : base;
}

/** Nav sections that exist in every account: a switch of account lands on the same one. */
const SECTIONS = new Set(["changes", "payments", "coverage", "runs", "lists", "users", "rules"]);

/** The page a switch of account returns to: the path's section, else the inbox (ids differ by account). */
export function sectionOf(path: string): string {
  const first = path.split("/")[1] ?? "";
  return SECTIONS.has(first) ? `/${first}` : "/";
}

export function wordHelpers(i18n: Translator) {
  return {
    term: (vocabulary: Vocabulary, code: string | number) => termOf(i18n, vocabulary, code),
    word: (vocabulary: Vocabulary, code: string | number | null | undefined) =>
      wordOf(i18n, vocabulary, code),
    value: (heading: string, value: unknown) => valueText(i18n, heading, value),
    /** Who did something: a person's name as given; the system account in words. */
    actor: (name: string | null | undefined) => (name === "root" ? i18n.t("actor.root") : (name ?? "")),
    /** A delivery's stored error as a sentence in the reader's language. */
    deliveryError: (error: string | null | undefined) => deliveryErrorWords(i18n, error) ?? "",
  };
}

export const viewHelpers = (locale: Locale, timeZone: string) => {
  const formats = formatsFor(locale, timeZone);
  return {
    dateTime: formats.dateTime,
    day: formats.day,
    money: formats.money,
    number: formats.number,
    month: formats.month,
    weekdays: formats.weekdays,
    withQuery,
    sectionOf,
  };
};

export function templateLocals(locale: Locale, timeZone: string) {
  const i18n = translatorFor(locale);
  return { locale, i18n, t: i18n.t, h: viewHelpers(locale, timeZone), w: wordHelpers(i18n) };
}
