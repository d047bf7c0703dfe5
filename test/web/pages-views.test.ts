/**
 * The console pages' pure parts: query-string reading and page links, the business page's
 * headings and timeline, the coverage calendar's day states, amounts as the payment pages show them.
 */
import { describe, expect, it } from "vitest";
import { asOfLines, profileLines, timelineDays } from "../../src/web/pages/business-view.ts";
import { firstMonday, listCalendar } from "../../src/web/pages/coverage-view.ts";
import { amountText, verdictWords } from "../../src/web/pages/payments-view.ts";
import { pageLinks, QueryReader } from "../../src/web/pages/query-reader.ts";
import type { TimelineRow } from "../../src/web/sql/business.ts";

describe("QueryReader and pageLinks", () => {
  it("reads repeated and empty values and names every bad one", () => {
    const q = new QueryReader({ list: ["a", " ", "b", "a"], since: "2024-02-30", page: "0", kind: "sync" });
    expect(q.texts("list")).toEqual(["a", "b"]);
    expect(q.text("kind")).toBe("sync");
    expect(q.date("since")).toBeNull();
    expect(q.integer("page", 1, 1, 10)).toBe(1);
    expect(q.choice("kind", ["backfill"] as const)).toBeNull();
    expect(q.problems).toEqual([
      'since "2024-02-30" is not a date: write it as YYYY-MM-DD',
      'page "0" must be a whole number from 1 to 10',
      'kind "sync" is not one of backfill',
    ]);
  });

  it("keeps every filter in the links and drops page 1", () => {
    const links = pageLinks(
      "/changes",
      { list: ["a b", "c"], since: "2024-01-01", page: "2", empty: "" },
      2,
      true,
    );
    expect(links.previous).toBe("/changes?list=a+b&list=c&since=2024-01-01");
    expect(links.next).toBe("/changes?list=a+b&list=c&since=2024-01-01&page=3");
    expect(pageLinks("/runs", {}, 1, false)).toEqual({ page: 1, previous: null, next: null });
  });
});

describe("business page", () => {
  it("says a heading of unknown order is unknown instead of showing a value", () => {
    const lines = asOfLines({ status: 1, bank_accounts: null, _order_ambiguous: ["bank_accounts"] });
    expect(lines.map((l) => [l.heading, l.value, l.ambiguous])).toEqual([
      ["bank_accounts", "", true],
      ["status", "operating", false],
    ]);
    const profile = profileLines({
      bank_accounts: {
        value: null,
        as_of: "2024-03-01",
        source: "change_file",
        order_ambiguous: true,
        candidates: [
          [{ bank_account: "11773016-11111018-00000000" }],
          [{ bank_account: "10400009-44556679-00000000" }],
        ],
      },
    });
    expect(profile[0]).toMatchObject({
      ambiguous: true,
      value: "",
      candidates: ["11773016-11111018-00000000", "10400009-44556679-00000000"],
    });
  });

  it("groups the timeline by day and says why a change has no values", () => {
    const row = (day: string, heading: string, hasValues: boolean, fileStatus: string): TimelineRow => ({
      changeId: 1,
      changeDate: day,
      heading,
      chapter: "general",
      listNames: ["suppliers"],
      hasValues,
      oldValue: hasValues ? "0" : null,
      oldValueKnown: true,
      newValue: hasValues ? "1" : null,
      orderAmbiguous: false,
      fileStatus,
      parseStatus: null,
    });
    const days = timelineDays([
      row("2024-03-02", "status", true, "fetched"),
      row("2024-03-02", "long_name", false, "pending"),
      row("2024-03-01", "address", false, "refused"),
    ]);
    expect(days.map((d) => [d.day, d.entries.length])).toEqual([
      ["2024-03-02", 2],
      ["2024-03-01", 1],
    ]);
    expect(days[0]!.entries[0]).toMatchObject({ before: "ceased", after: "operating", pending: null });
    expect(days[0]!.entries[1]!.pending).toContain("waiting to be fetched");
    expect(days[1]!.entries[0]!.pending).toContain("REGWATCH_FILE_ORIGINS");
  });
});

describe("coverage calendar", () => {
  it("starts on a Monday and marks each day's state, an open invalid window first", () => {
    expect(firstMonday("2024-03-10", 1)).toBe("2024-03-04");
    expect(firstMonday("2024-03-11", 2)).toBe("2024-03-04");
    const calendar = listCalendar(
      {
        listKey: "wl_1",
        listName: "suppliers",
        createdAt: "2024-03-05",
        deleted: false,
        intervals: [
          { start: "2024-03-05", end: "2024-03-06", acceptedReason: null },
          { start: "2024-03-08", end: "2024-03-08", acceptedReason: "checked by hand" },
          { start: "2024-03-09", end: "2024-03-09", acceptedReason: null },
        ],
        invalid: [{ start: "2024-03-06", end: "2024-03-06", items: 2, example: "bad date" }],
      },
      { lastComplete: "2024-03-09", today: "2024-03-10", weeks: 1 },
    );
    expect(calendar.weeks[0]!.days.map((d) => d.state)).toEqual([
      "before",
      "covered",
      "invalid",
      "gap",
      "accepted",
      "covered",
      "future",
    ]);
    expect(calendar.gaps).toEqual([{ start: "2024-03-07", end: "2024-03-07", days: 1 }]);
    expect(calendar.accepted).toEqual([
      { start: "2024-03-08", end: "2024-03-08", reason: "checked by hand" },
    ]);
    expect(calendar.weeks[0]!.monthLabel).toBe("March 2024");
    const earlier = listCalendar(
      { listKey: "wl_1", listName: "s", createdAt: null, deleted: false, intervals: [], invalid: [] },
      { lastComplete: "2024-03-09", today: "2024-03-10", weeks: 2, end: "2024-01-31" },
    );
    expect(earlier.weeks.map((w) => w.monday)).toEqual(["2024-01-22", "2024-01-29"]);
    expect(earlier.weeks[1]!.monthLabel).toBe("February 2024");
  });
});

describe("payment amounts and verdicts", () => {
  it("groups digits exactly, without floating point", () => {
    expect(amountText("1250000.50", "HUF", null)).toBe("1 250 000.50 HUF");
    expect(amountText("-1250", null, null)).toBe("-1 250");
    expect(amountText("12345678901234567.01", "EUR", null)).toBe("12 345 678 901 234 567.01 EUR");
    expect(amountText(null, "HUF", "12,5,3")).toBe("12,5,3");
  });

  it("holds every verdict but ok and not_watched, an unknown one included", () => {
    expect(verdictWords("ok")).toMatchObject({ held: false, severity: "green" });
    expect(verdictWords("not_watched")).toMatchObject({ held: false, severity: "green" });
    expect(verdictWords("account_change_unverified")).toMatchObject({ held: true, severity: "amber" });
    expect(verdictWords("something_new")).toMatchObject({
      held: true,
      severity: "red",
      words: "something_new",
    });
  });
});
