/**
 * Numbers, money, days and instants as a reader of a language expects them, through Intl, pure:
 * `1 234 567,00 Ft` and `2026. 11. 27. 07:15 CET` in Hungarian, `HUF 1,234,567.00` and
 * `27 Nov 2026, 07:15 CET` in English. Every instant carries its zone's name; days (the registry's
 * calendar days) have no zone. Formatters are built once per language and zone.
 */
import { currencyDecimals } from "../formats/read/amounts.ts";
import { INTL_TAG, type Locale } from "./locales.ts";

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export interface Formats {
  locale: Locale;
  timeZone: string;
  /** A count or measure: `1 234 567,5` / `1,234,567.5`. */
  number(value: number | string): string;
  /**
   * An amount (an exact decimal string or a number) in its currency, with the currency's own
   * ISO 4217 decimals, so a row and its total read alike; no currency: the number as written.
   */
  money(amount: number | string | null | undefined, currency: string | null | undefined): string;
  /** A calendar day (YYYY-MM-DD): `2026. 11. 27.` / `27 Nov 2026`; other text as it is. */
  day(value: string | null | undefined): string;
  /** An instant with its zone: `2026. 11. 27. 07:15 CET` / `27 Nov 2026, 07:15 CET`. */
  dateTime(value: Date | string | null | undefined): string;
  /** Month and year, for calendars: `2026. november` / `November 2026`. */
  month(day: string): string;
  /** Short weekday names Monday first. */
  weekdays(): string[];
}

function build(locale: Locale, timeZone: string): Formats {
  const tag = INTL_TAG[locale];
  const numbers = new Intl.NumberFormat(tag, { maximumFractionDigits: 20 });
  const days = new Intl.DateTimeFormat(tag, {
    dateStyle: locale === "hu" ? "short" : "medium",
    timeZone: "UTC",
  });
  const instants = new Intl.DateTimeFormat(tag, {
    year: "numeric",
    month: locale === "hu" ? "2-digit" : "short",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZoneName: "short",
    timeZone,
  });
  const months = new Intl.DateTimeFormat(tag, { year: "numeric", month: "long", timeZone: "UTC" });
  const weekday = new Intl.DateTimeFormat(tag, { weekday: "short", timeZone: "UTC" });
  const moneyFormats = new Map<string, Intl.NumberFormat>();
  const moneyIn = (currency: string) => {
    let format = moneyFormats.get(currency);
    if (!format) {
      const decimals = currencyDecimals(currency);
      format = new Intl.NumberFormat(tag, {
        style: "currency",
        currency,
        // English readers of this console see the code (HUF 1,234,567.00), Hungarian ones the sign (Ft).
        currencyDisplay: locale === "en" ? "code" : "symbol",
        minimumFractionDigits: decimals,
        maximumFractionDigits: decimals,
      });
      moneyFormats.set(currency, format);
    }
    return format;
  };
  const asNumber = (value: number | string) => numbers.format(value as unknown as number);
  return {
    locale,
    timeZone,
    number: asNumber,
    money(amount, currency) {
      if (amount === null || amount === undefined || amount === "") return "";
      if (typeof amount === "string" && !/^-?\d+(\.\d+)?$/.test(amount)) return amount;
      let known = false;
      try {
        known = Boolean(currency) && currencyDecimals(currency!) >= 0;
      } catch {
        known = false;
      }
      const text = known ? moneyIn(currency!).format(amount as unknown as number) : asNumber(amount);
      return !known && currency ? `${text} ${currency}` : text;
    },
    day(value) {
      if (value === null || value === undefined) return "";
      if (!DAY.test(value)) return value;
      const at = new Date(`${value}T12:00:00Z`);
      return Number.isNaN(at.getTime()) ? value : days.format(at);
    },
    dateTime(value) {
      if (value === null || value === undefined || value === "") return "";
      const instant = value instanceof Date ? value : new Date(value);
      if (Number.isNaN(instant.getTime())) return String(value);
      return instants.format(instant);
    },
    month(day) {
      return months.format(new Date(`${day.slice(0, 7)}-01T12:00:00Z`));
    },
    weekdays() {
      // 2024-01-01 was a Monday.
      return [1, 2, 3, 4, 5, 6, 7].map((d) => weekday.format(new Date(Date.UTC(2024, 0, d, 12))));
    },
  };
}

const built = new Map<string, Formats>();

export function formatsFor(locale: Locale, timeZone: string): Formats {
  const key = `${locale} ${timeZone}`;
  let formats = built.get(key);
  if (!formats) {
    formats = build(locale, timeZone);
    built.set(key, formats);
  }
  return formats;
}
