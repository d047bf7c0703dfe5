/**
 * Every sentence a payment check or a shared validation makes has its words in both catalogs, and
 * they are said with every value in place (pure).
 */
import { describe, expect, it } from "vitest";
import type { UnverifiedChange } from "../../src/changes/evidence.ts";
import { formatsFor } from "../../src/i18n/format.ts";
import { translatorFor } from "../../src/i18n/messages.ts";
import { saidWords, storedWords } from "../../src/i18n/said-words.ts";
import { detailSaid } from "../../src/payments/detail-said.ts";
import { nextStepSaid } from "../../src/payments/next-step.ts";
import { VERDICTS } from "../../src/payments/verdicts.ts";
import { type Said, said, storedSaid } from "../../src/said.ts";

const change: UnverifiedChange = {
  changeDate: "2026-11-20",
  reason: "failed",
  why: "fetching its change file failed: HTTP 500",
  error: ": HTTP 500",
  withinHold: true,
};

const STALE = said(
  "pay.stale.old",
  { day: "2026-10-01", days: 30 },
  "its newest record was read on 2026-10-01, more than 30 day(s) ago",
);

const made: Said[] = [
  detailSaid.holdersSeveral(["10000001 (Egy Kft.)", "10000002"]),
  detailSaid.holdersFormer(["10000001"]),
  detailSaid.holderUnknown(),
  detailSaid.formerHolder("10000001"),
  detailSaid.foundByAccount("10000001 (Egy Kft.)"),
  detailSaid.statusUnread("2026-11-20", "pending", "", "its change file has not been fetched yet", 1),
  detailSaid.statusUnread("2026-11-20", "pending", "", "its change file has not been fetched yet", null),
  detailSaid.ceased(),
  detailSaid.suspended(),
  detailSaid.removed("2026-11-01", ["11773016-11111018-00000000"]),
  detailSaid.removed(null, []),
  detailSaid.registeredTo(["10000001"]),
  detailSaid.formerlyOwn(),
  detailSaid.noAccounts(),
  detailSaid.registeredAccounts(["11773016-11111018-00000000"]),
  detailSaid.kindListsNoAccounts(),
  detailSaid.nameNotCompared(),
  detailSaid.nameUnread("Egy", "10000001", ["Kettő Kft."], "2026-11-20", "no_file", "", "no change file"),
  detailSaid.nameMismatch("Egy", "10000001", ["Kettő Kft.", "Kettő"]),
  detailSaid.verified("vera", "2026-11-21", "phoned"),
  detailSaid.verifiedBefore("vera", "2026-11-19", null, "2026-11-20"),
  detailSaid.added("2026-11-20", "search", 30),
  detailSaid.added("2026-11-20", null, 1),
  detailSaid.unverifiedChange(change, 30),
  detailSaid.unverifiedChange({ ...change, withinHold: false }, 30),
  detailSaid.unconfirmed(),
  detailSaid.unconfirmedAccepted(),
  detailSaid.unknownBusiness("10000001"),
  detailSaid.notWatched(),
  detailSaid.amountCannotPay("1,2,3", "more than one decimal separator"),
  detailSaid.amountEmpty(),
  detailSaid.amountUnreadable("abc"),
  detailSaid.amountZero("0"),
  detailSaid.amountNegative("-5"),
  detailSaid.notCheckedOnline(detailSaid.searchFailed("HTTP 503"), STALE),
  detailSaid.notCheckedOnline(detailSaid.quotaSpent(), null),
  detailSaid.askedNoRecord(
    "01-09-123456",
    said(
      "pay.stale.unread",
      { day: "2026-11-20", heading: "status" },
      "its status change of 2026-11-20 could not be read",
    ),
  ),
  detailSaid.askedNoRecord("01-09-123456", null),
  detailSaid.searchFoundNone(),
  ...VERDICTS.filter((v) => v !== "ok").flatMap((v) =>
    [true, false].map(
      (online) =>
        nextStepSaid(v, {
          taxBase: "10000001",
          account: "11773016-11111018-00000000",
          holdDays: 30,
          addedOn: "2026-11-20",
          unverified: [change],
          online,
        })!,
    ),
  ),
];

describe("sentences kept as codes", () => {
  for (const locale of ["en", "hu"] as const) {
    it(`are said in ${locale} with every value in place`, () => {
      const i18n = translatorFor(locale);
      const formats = formatsFor(locale, "Europe/Budapest");
      for (const said of made) {
        const words = saidWords(i18n, formats, JSON.parse(JSON.stringify(storedSaid(said))));
        expect(words, said.code).toBeDefined();
        expect(words, said.code).not.toMatch(/[{}]/);
        expect(words, said.code).not.toContain("undefined");
      }
    });
  }

  it("say days, lists and a change file's reason as the reader writes them", () => {
    const hu = translatorFor("hu");
    const formats = formatsFor("hu", "Europe/Budapest");
    expect(saidWords(hu, formats, storedSaid(detailSaid.unverifiedChange(change, 30)))).toBe(
      "a bankszámlák 2026. 11. 20. dátumú változása nincs ellenőrizve: a változásfájl letöltése nem sikerült: HTTP 500 (a(z) 30 napos visszatartási időn belül)",
    );
    expect(saidWords(hu, formats, storedSaid(detailSaid.nameMismatch("Egy", "10000001", ["A", "B"])))).toBe(
      "a fájl „Egy” néven nevezi a kedvezményezettet; a(z) 10000001 adószámú vállalkozás nevei a cégnyilvántartásban: „A” és „B”",
    );
  });

  it("say why a record was asked for again in the reader's language", () => {
    const note = detailSaid.notCheckedOnline(detailSaid.quotaSpent(), STALE);
    expect(note.text).toBe(
      "not checked online: the monthly search quota is used up (its newest record was read on 2026-10-01, more than 30 day(s) ago)",
    );
    expect(saidWords(translatorFor("hu"), formatsFor("hu", "UTC"), storedSaid(note))).toBe(
      "online nincs ellenőrizve: a havi keresési keret elfogyott (a legújabb rekordját 2026. 10. 01. dátummal olvastuk be, több mint 30 napja)",
    );
  });

  it("fall back to the stored English when no code was kept, or its code is unknown", () => {
    const hu = translatorFor("hu");
    const formats = formatsFor("hu", "Europe/Budapest");
    expect(storedWords(hu, formats, null, "as stored")).toBe("as stored");
    expect(storedWords(hu, formats, [{ code: "pay.detail.gone", values: {} }], "as stored")).toBe(
      "as stored",
    );
    expect(storedWords(hu, formats, JSON.stringify([storedSaid(detailSaid.ceased())]), "x")).toBe(
      "a cégnyilvántartás szerint a vállalkozás megszűnt",
    );
  });
});
