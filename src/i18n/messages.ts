/**
 * Every sentence a person reads, by key, from the catalogs in ICU MessageFormat (placeholders,
 * plurals and selects inside the message, never sentences glued from fragments), formatted with
 * FormatJS's intl-messageformat. A message is compiled once per language and kept.
 */
import { IntlMessageFormat } from "intl-messageformat";
import { CATALOGS, type MessageKey } from "./catalogs/index.ts";
import { INTL_TAG, type Locale } from "./locales.ts";

export type { MessageKey } from "./catalogs/index.ts";

export type MessageValues = Record<string, string | number | Date | null | undefined>;

export interface Translator {
  locale: Locale;
  /** The message in this language; a key no catalog has comes back as the key itself. */
  t(key: MessageKey, values?: MessageValues): string;
  /** For keys built from data (a heading, a status): whether the catalog has a message. */
  has(key: string): key is MessageKey;
}

function build(locale: Locale): Translator {
  const catalog = CATALOGS[locale] as Record<string, string>;
  const compiled = new Map<string, IntlMessageFormat>();
  const tag = INTL_TAG[locale];
  return {
    locale,
    t(key, values) {
      let message = compiled.get(key);
      if (!message) {
        const source = catalog[key];
        if (source === undefined) return key;
        // ignoreTag: a `<` in a message is text; the templates escape everything they show.
        message = new IntlMessageFormat(source, tag, undefined, { ignoreTag: true });
        compiled.set(key, message);
      }
      const clean: Record<string, string | number | Date> = {};
      for (const [name, value] of Object.entries(values ?? {})) clean[name] = value ?? "";
      return String(message.format(clean));
    },
    has(key): key is MessageKey {
      return Object.hasOwn(catalog, key);
    },
  };
}

const translators = new Map<Locale, Translator>();

export function translatorFor(locale: Locale): Translator {
  let translator = translators.get(locale);
  if (!translator) {
    translator = build(locale);
    translators.set(locale, translator);
  }
  return translator;
}
