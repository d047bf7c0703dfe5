/**
 * Which language a reader gets, pure: the user's own choice, else the language cookie a
 * signed-out browser was given by the switch, else the browser's Accept-Language, else
 * REGWATCH_LOCALE. Only the languages with a catalog are ever chosen.
 */

export const LOCALES = ["en", "hu"] as const;
export type Locale = (typeof LOCALES)[number];

/** The cookie the language switch sets (signed out, and beside the user's stored choice). */
export const LOCALE_COOKIE = "regwatch_lang";

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/**
 * The first language of an Accept-Language header (by its q weights, then its order) that has a
 * catalog: `en-GB` and `en` give en, `hu-HU` gives hu; undefined when none has.
 */
export function fromAcceptLanguage(header: string | undefined): Locale | undefined {
  if (!header) return undefined;
  const ranked = header
    .split(",")
    .map((part, index) => {
      const [range = "", ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const weight = q === undefined ? 1 : Number(q.slice(2));
      return { primary: range.trim().toLowerCase().split("-")[0], weight, index };
    })
    .filter((r) => Number.isFinite(r.weight) && r.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  return ranked.map((r) => r.primary).find(isLocale);
}

export interface LocaleSources {
  /** The signed-in user's stored choice (console_users.locale). */
  user?: string | null;
  /** The language cookie's value. */
  cookie?: string | undefined;
  acceptLanguage?: string | undefined;
  /** REGWATCH_LOCALE. */
  fallback: Locale;
}

export function pickLocale(sources: LocaleSources): Locale {
  if (isLocale(sources.user)) return sources.user;
  if (isLocale(sources.cookie)) return sources.cookie;
  return fromAcceptLanguage(sources.acceptLanguage) ?? sources.fallback;
}

/** The BCP 47 tag Intl formats with: English as written in Europe (27 Nov 2026), Hungarian. */
export const INTL_TAG: Record<Locale, string> = { en: "en-GB", hu: "hu-HU" };
