/**
 * The formatting helpers and the choice of language, pure: money with the currency's own
 * decimals in each language, days and zoned instants, ISO instants with the zone's offset, and
 * which language a reader gets.
 */
import { describe, expect, it } from "vitest";
import { isoInZone, jsonInZone, zonedStamp } from "../../src/dates.ts";
import { formatsFor } from "../../src/i18n/format.ts";
import { fromAcceptLanguage, pickLocale } from "../../src/i18n/locales.ts";
import { translatorFor } from "../../src/i18n/messages.ts";
import { termOf } from "../../src/i18n/words.ts";

/** Intl separates groups and units with no-break spaces; the assertions read plain spaces. */
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");
const hu = formatsFor("hu", "Europe/Budapest");
const en = formatsFor("en", "Europe/Budapest");
const winter = new Date("2026-11-27T06:15:00Z");
const summer = new Date("2026-07-01T05:15:00Z");

describe("money", () => {
  it("writes Hungarian and English amounts with the currency's ISO 4217 decimals", () => {
    expect(plain(hu.money("1234567.00", "HUF"))).toBe("1 234 567,00 Ft");
    expect(plain(hu.money("1234567", "HUF"))).toBe("1 234 567,00 Ft");
    expect(plain(en.money("1234567.00", "HUF"))).toBe("HUF 1,234,567.00");
    expect(plain(en.money("1250.5", "EUR"))).toBe("EUR 1,250.50");
    expect(plain(hu.money("1250.5", "EUR"))).toBe("1250,50 EUR");
    expect(plain(en.money("1234", "JPY"))).toBe("JPY 1,234");
    expect(plain(en.money("-1250", "HUF"))).toBe("-HUF 1,250.00");
  });

  it("keeps an exact decimal exact, and shows what is not an amount as it is", () => {
    expect(plain(en.money("12345678901234567.01", "EUR"))).toBe("EUR 12,345,678,901,234,567.01");
    expect(en.money(null, "HUF")).toBe("");
    expect(en.money("12,5,3", "HUF")).toBe("12,5,3");
    expect(plain(en.money("12.5", null))).toBe("12.5");
    expect(plain(en.money("12.5", "XYZ"))).toBe("12.5 XYZ");
  });
});

describe("days and instants", () => {
  it("writes a calendar day as each language does", () => {
    expect(hu.day("2026-11-27")).toBe("2026. 11. 27.");
    expect(en.day("2026-11-27")).toBe("27 Nov 2026");
    expect(en.day("not a day")).toBe("not a day");
  });

  it("writes every instant with its zone's name", () => {
    expect(plain(hu.dateTime(winter))).toBe("2026. 11. 27. 07:15 CET");
    expect(plain(en.dateTime(winter))).toBe("27 Nov 2026, 07:15 CET");
    expect(plain(hu.dateTime(summer))).toBe("2026. 07. 01. 07:15 CEST");
    expect(plain(formatsFor("en", "UTC").dateTime(winter))).toBe("27 Nov 2026, 06:15 UTC");
  });

  it("writes ISO instants with the zone's offset, the same instant", () => {
    expect(isoInZone(winter, "Europe/Budapest")).toBe("2026-11-27T07:15:00.000+01:00");
    expect(isoInZone(summer, "Europe/Budapest")).toBe("2026-07-01T07:15:00.000+02:00");
    expect(isoInZone(winter, "America/New_York")).toBe("2026-11-27T01:15:00.000-05:00");
    expect(Date.parse(isoInZone(winter, "Asia/Kolkata"))).toBe(winter.getTime());
    expect(jsonInZone({ at: winter, day: "2026-11-27" }, "Europe/Budapest")).toBe(
      '{"at":"2026-11-27T07:15:00.000+01:00","day":"2026-11-27"}',
    );
    expect(zonedStamp(winter, "Europe/Budapest")).toBe("2026-11-27 07:15 CET");
  });
});

describe("the reader's language", () => {
  it("is the user's choice, else the cookie, else Accept-Language, else REGWATCH_LOCALE", () => {
    expect(pickLocale({ user: "hu", cookie: "en", acceptLanguage: "en-GB", fallback: "en" })).toBe("hu");
    expect(pickLocale({ user: null, cookie: "hu", acceptLanguage: "en-GB", fallback: "en" })).toBe("hu");
    expect(pickLocale({ user: null, acceptLanguage: "en-GB,en;q=0.9", fallback: "hu" })).toBe("en");
    expect(pickLocale({ user: "de", cookie: "fr", acceptLanguage: "de-DE", fallback: "hu" })).toBe("hu");
  });

  it("reads Accept-Language by weight, then order", () => {
    expect(fromAcceptLanguage("de-DE,hu;q=0.5,en;q=0.8")).toBe("en");
    expect(fromAcceptLanguage("HU-hu")).toBe("hu");
    expect(fromAcceptLanguage("en;q=0,hu;q=0.1")).toBe("hu");
    expect(fromAcceptLanguage("fr, de")).toBeUndefined();
    expect(fromAcceptLanguage(undefined)).toBeUndefined();
  });
});

describe("messages and words", () => {
  it("puts plurals and placeholders inside whole sentences", () => {
    const t = translatorFor("en").t;
    expect(t("coverage.behind", { days: 1 })).toBe("1 day behind");
    expect(t("coverage.behind", { days: 3 })).toBe("3 days behind");
    expect(translatorFor("hu").t("coverage.behind", { days: 3 })).toBe("3 nap lemaradás");
  });

  it("says a code as a word and keeps an unknown code as it is", () => {
    const huWords = translatorFor("hu");
    expect(termOf(huWords, "heading", "bank_accounts")).toEqual({
      key: "bank_accounts",
      label: "Bankszámlaszámok",
      known: true,
    });
    expect(termOf(huWords, "heading", "capital_subscribed")).toEqual({
      key: "capital_subscribed",
      label: "capital_subscribed",
      known: false,
    });
    expect(termOf(huWords, "businessStatus", 0).label).toBe("megszűnt");
  });
});
