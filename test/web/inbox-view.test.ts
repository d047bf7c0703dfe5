/** The inbox's pure parts: filters read from the query string, headings in words, groups by business. */
import { describe, expect, it } from "vitest";
import { filterParams, groupByBusiness, headingLines, readInboxQuery } from "../../src/web/inbox-view.ts";
import type { InboxChange } from "../../src/web/sql/inbox-changes.ts";

const alert = (id: number, taxId: string, extra: Partial<InboxChange> = {}): InboxChange => ({
  changeId: id,
  alertIds: [id],
  alerts: [{ id, rule: "r", status: "open" }],
  statuses: ["open"],
  snoozedUntil: null,
  assignedTo: [],
  taxId,
  name: null,
  changeDate: "2026-11-20",
  lists: [],
  headingNames: [],
  values: [],
  severity: "normal",
  raisedAt: new Date(0),
  delivery: null,
  ...extra,
});

describe("readInboxQuery", () => {
  it("defaults to open alerts, page 1, any list, heading, rule and date", () => {
    const { filter, problems } = readInboxQuery({});
    expect(problems).toEqual([]);
    expect(filter).toEqual({
      status: "open",
      list: null,
      heading: null,
      rule: null,
      from: null,
      to: null,
      severity: null,
      assignedToMe: false,
      newOnly: false,
      page: 1,
      pageSize: 50,
    });
  });

  it("takes every filter, trimmed, and gives them back for links (open left out)", () => {
    const { filter } = readInboxQuery({
      status: "all",
      list: " suppliers ",
      heading: "seat",
      rule: "ops",
      from: "2026-11-01",
      to: "2026-11-30",
      severity: "high",
      assigned: "me",
      new: "1",
      page: "3",
    });
    expect(filter).toMatchObject({ status: "all", list: "suppliers", page: 3 });
    expect(filterParams(filter)).toEqual({
      status: "all",
      list: "suppliers",
      heading: "seat",
      rule: "ops",
      from: "2026-11-01",
      to: "2026-11-30",
      severity: "high",
      assigned: "me",
      new: "1",
    });
    expect(filterParams(readInboxQuery({}).filter).status).toBeNull();
  });

  it("names each bad value and falls back to the default for it", () => {
    const { filter, problems } = readInboxQuery({ status: "closed", from: "2026-02-30", page: "0" });
    expect(problems).toEqual([
      'status must be one of open, acknowledged, resolved, snoozed, all; got "closed"',
      'from must be a date as YYYY-MM-DD; got "2026-02-30"',
      'page must be a whole number from 1; got "0"',
    ]);
    expect(filter).toMatchObject({ status: "open", from: null, page: 1 });
  });
});

describe("headingLines", () => {
  it("puts accounts as numbers and status codes as words, and says when values are not read yet", () => {
    expect(
      headingLines(
        ["bank_accounts", "status", "seat"],
        [
          {
            heading: "bank_accounts",
            oldValue: [{ bank_account: "A-1" }],
            newValue: [{ bank_account: "B-2" }],
          },
          { heading: "status", oldValue: "1", newValue: "0", orderAmbiguous: true },
        ],
      ),
    ).toEqual([
      { heading: "bank_accounts", oldText: "A-1", newText: "B-2", orderAmbiguous: false },
      { heading: "status", oldText: "operating", newText: "ceased", orderAmbiguous: true },
      { heading: "seat", oldText: null, newText: null, orderAmbiguous: false },
    ]);
  });

  it("shows a missing old value as (none)", () => {
    expect(headingLines([], [{ heading: "name", oldValue: null, newValue: "Alpha" }])[0]).toMatchObject({
      oldText: "(none)",
      newText: "Alpha",
    });
  });
});

describe("groupByBusiness", () => {
  it("groups in the order of each business's newest alert, lists merged, names defaulted", () => {
    const groups = groupByBusiness([
      alert(9, "22222222", { name: "Beta", lists: ["a"] }),
      alert(8, "11111111", { lists: ["b"] }),
      alert(7, "22222222", { name: "Beta", lists: ["c", "a"] }),
    ]);
    expect(groups.map((g) => [g.taxId, g.name, g.lists, g.changes.map((c) => c.changeId)])).toEqual([
      ["22222222", "Beta", ["a", "c"], [9, 7]],
      ["11111111", "", ["b"], [8]],
    ]);
  });

  it("shows the lists a business is on now when they are known", () => {
    const groups = groupByBusiness(
      [alert(9, "22222222", { lists: ["old list"] })],
      new Map([["22222222", ["x", "y"]]]),
    );
    expect(groups[0]!.lists).toEqual(["x", "y"]);
  });
});
