/**
 * A sentence kept as a code and values (src/said.ts) said in the reader's language, pure: lists
 * joined as the language joins them, days as the reader writes days, a change file's reason, a
 * status and a heading as words (a list of `knownHeadings` as "word (key)"). A code the catalog does not have (or no code at all: rows
 * stored before codes were kept) gives the stored English.
 */
import type { Said, SaidValue, StoredSaid } from "../said.ts";
import { formatsFor } from "./format.ts";
import { INTL_TAG } from "./locales.ts";
import type { MessageKey, MessageValues, Translator } from "./messages.ts";
import { wordOf } from "./words.ts";

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export interface SaidFormats {
  day(value: string): string;
}

const lists = new Map<string, Intl.ListFormat>();

/** "a, b and c"; a list of choices (`allowed`) as "a, b or c". */
function listIn(locale: string, type: "conjunction" | "disjunction"): Intl.ListFormat {
  let format = lists.get(`${locale} ${type}`);
  if (!format) {
    format = new Intl.ListFormat(INTL_TAG[locale as keyof typeof INTL_TAG], { style: "long", type });
    lists.set(`${locale} ${type}`, format);
  }
  return format;
}

function isStoredSaid(value: unknown): value is StoredSaid {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as StoredSaid).code === "string" &&
    typeof (value as StoredSaid).values === "object"
  );
}

/** The values a catalog message reads, from the stored ones. */
function valuesFor(i18n: Translator, formats: SaidFormats, values: Record<string, SaidValue>): MessageValues {
  const quote = (text: string) => (i18n.locale === "hu" ? `„${text}”` : `“${text}”`);
  const out: MessageValues = {};
  for (const [key, value] of Object.entries(values)) {
    if (Array.isArray(value)) {
      const items =
        key === "names"
          ? value.map(quote)
          : key === "knownHeadings"
            ? value.map((h) => `${wordOf(i18n, "heading", h)} (${h})`)
            : value.map((v) => (DAY.test(v) ? formats.day(v) : v));
      out[key] = listIn(i18n.locale, key === "allowed" ? "disjunction" : "conjunction").format(items);
      out[`${key}Given`] = value.length > 0 ? "yes" : "no";
      out[`${key}Count`] = value.length;
    } else if (typeof value === "string") {
      out[key] = DAY.test(value) ? formats.day(value) : value;
      out[`${key}Given`] = value === "" ? "no" : "yes";
    } else out[key] = value as number;
  }
  const heading = typeof values.heading === "string" ? values.heading : "";
  if (heading) out.headingWord = wordOf(i18n, "heading", heading);
  if (typeof values.reason === "string" && i18n.has(`reason.${values.reason}`)) {
    out.why = i18n.t(`reason.${values.reason}` as MessageKey, {
      error: String(values.error ?? ""),
      heading: out.headingWord ?? heading,
    });
  }
  if (typeof values.status === "string" && values.status !== "none") {
    out.statusWord = wordOf(i18n, "businessStatus", values.status);
  }
  if (typeof values.staleCode === "string" && i18n.has(values.staleCode)) {
    const staleHeading = typeof values.staleHeading === "string" ? values.staleHeading : "";
    out.stale = i18n.t(values.staleCode as MessageKey, {
      day: typeof values.staleDay === "string" ? formats.day(values.staleDay) : "",
      days: typeof values.staleDays === "number" ? values.staleDays : 0,
      heading: staleHeading ? wordOf(i18n, "heading", staleHeading) : "",
    });
  }
  if (typeof values.cause === "string" && i18n.has(values.cause)) {
    out.cause = i18n.t(values.cause as MessageKey, { error: String(values.error ?? "") });
  }
  return out;
}

/** One sentence in the reader's language; undefined when its code has no message. */
export function saidWords(i18n: Translator, formats: SaidFormats, said: unknown): string | undefined {
  if (!isStoredSaid(said) || !i18n.has(said.code)) return undefined;
  return i18n.t(said.code, valuesFor(i18n, formats, said.values as Record<string, SaidValue>));
}

/**
 * A stored detail (its sentences, joined as the CLI joins them) or next step in the reader's
 * language, else `english` as stored.
 */
export function storedWords(
  i18n: Translator,
  formats: SaidFormats,
  stored: unknown,
  english: string | null,
): string | null {
  // jsonb may arrive as its text (a client whose JSON parsing drizzle switched off).
  const value = typeof stored === "string" ? parseJson(stored) : stored;
  const parts = Array.isArray(value) ? value : value === null || value === undefined ? [] : [value];
  if (parts.length === 0) return english;
  const said = parts.map((p) => saidWords(i18n, formats, p));
  if (said.some((s) => s === undefined)) return english;
  return [...new Set(said as string[])].join("; ");
}

/** A sentence made now (a validation's refusal) in the reader's language, else its English. */
export function saidIn(i18n: Translator, said: Said): string {
  return saidWords(i18n, formatsFor(i18n.locale, "UTC"), said) ?? said.text;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
