import { describe, expect, it } from "vitest";
import { displayValue, feedCsv, feedLines, headingValue, shorten } from "../../src/changes/format.ts";
import type { FeedRow } from "../../src/changes/sql/change-feed.ts";
import { UNSAFE_CLASS } from "../../src/formats/terminal-text.ts";

/** Any character terminalSafe escapes. */
const UNSAFE = new RegExp(UNSAFE_CLASS);

const row = (over: Partial<FeedRow> = {}): FeedRow => ({
  changeDate: "2024-03-05",
  taxId: "12345678",
  businessName: "Alfa Kft.",
  listNames: ["suppliers", "clients"],
  heading: "bank_accounts",
  oldValue: [{ bank_account: "11111111-22222222" }],
  newValue: [{ bank_account: "33333333-44444444" }, { bank_account: "55555555-66666666" }],
  changeId: 1,
  path: "p",
  orderAmbiguous: false,
  oldValueKnown: true,
  valuesRead: true,
  fileStatus: null,
  parseStatus: null,
  ...over,
});

describe("the change feed's text", () => {
  it("reads values as a person would: text, accounts, names, else JSON", () => {
    expect(displayValue("Fő utca 1.")).toBe("Fő utca 1.");
    expect(displayValue([{ bank_account: "A" }, { bank_account: "B" }])).toBe("A, B");
    expect(displayValue([{ name: "Kiss Anna" }, { name: "Nagy Béla" }])).toBe("Kiss Anna, Nagy Béla");
    expect(displayValue(["4690 Nagykereskedelem"])).toBe("4690 Nagykereskedelem");
    expect(displayValue(null)).toBe("(none)");
    expect(displayValue(2)).toBe("2");
    expect(displayValue({ a: 1 })).toBe('{"a":1}');
  });

  it("prints one line per heading, shortening long values only when asked", () => {
    expect(feedLines([row()], { shorten: true })).toBe(
      "2024-03-05  Alfa Kft. (12345678)  [suppliers, clients]  bank_accounts: 11111111-22222222 → 33333333-44444444, 55555555-66666666\n",
    );
    const long = "x".repeat(100);
    expect(
      feedLines([row({ heading: "address", oldValue: null, newValue: long, businessName: null })], {
        shorten: true,
      }),
    ).toBe(
      `2024-03-05  (name unknown) (12345678)  [suppliers, clients]  address: (none) → ${"x".repeat(47)}…\n`,
    );
    expect(feedLines([row({ newValue: long })], { shorten: false })).toContain(long);
    expect(shorten("a\n  b")).toBe("a b");
  });

  it("shows a status as words, as alert messages do; a code not documented as received", () => {
    expect(feedLines([row({ heading: "status", oldValue: 1, newValue: 2 })], { shorten: true })).toContain(
      "status: operating → suspended\n",
    );
    expect(headingValue("status", 7)).toBe("code 7");
    expect(headingValue("address", 1)).toBe("1");
  });

  it("writes CSV with whole values, quoting what needs it", () => {
    expect(feedCsv([row({ businessName: 'Alfa "Best", Kft.' })])).toBe(
      "change_date,tax_id,business_name,list_names,heading,old_value,new_value,order_ambiguous,old_value_known,values_read\n" +
        '2024-03-05,12345678,"Alfa ""Best"", Kft.",suppliers;clients,bank_accounts,' +
        '"[{""bank_account"":""11111111-22222222""}]",' +
        '"[{""bank_account"":""33333333-44444444""},{""bank_account"":""55555555-66666666""}]",false,true,true\n',
    );
  });

  it("shows control characters from the registry escaped, so a value cannot forge a line or recolour the screen", () => {
    const hostile = row({
      businessName: "Evil\u001b[31m Kft.",
      listNames: ["a\nb"],
      heading: "long_name",
      oldValue: "Old\rName",
      newValue: "New\u202eeman\u0007",
    });
    for (const shortened of [true, false]) {
      const text = feedLines([hostile], { shorten: shortened });
      expect(text.split("\n")).toHaveLength(2);
      expect(text.slice(0, -1)).not.toMatch(UNSAFE);
      expect(text).toContain("Evil\\e[31m Kft.");
      expect(text).toContain("\\u{202e}");
    }
    expect(feedLines([hostile], { shorten: false })).toContain("[a\\nb]");
  });

  it("neutralises cells that would start a formula in CSV, as the console's download does", () => {
    const csv = feedCsv([
      row({
        businessName: "@SUM(A1)",
        heading: "long_name",
        oldValue: "-1250.50",
        newValue: '=HYPERLINK("x")',
      }),
    ]);
    expect(csv.split("\n")[1]).toBe(
      `2024-03-05,12345678,'@SUM(A1),suppliers;clients,long_name,-1250.50,"'=HYPERLINK(""x"")",false,true,true`,
    );
  });

  it("escapes control characters in CSV for a terminal only", () => {
    const hostile = row({ businessName: "Evil\u001b[2J\u0007", heading: "long_name", newValue: "\tA\rB" });
    const piped = feedCsv([hostile]);
    expect(piped).toContain("Evil\u001b[2J\u0007");
    expect(piped).toContain(`"'\tA\rB"`);
    const shown = feedCsv([hostile], { terminal: true });
    expect(shown.replaceAll("\n", "")).not.toMatch(UNSAFE);
    expect(shown).toContain("Evil\\e[2J\\u{0007}");
    expect(shown).toContain(",'\\tA\\rB,");
  });

  it("says when the order of a day's values of a heading is unknown", () => {
    expect(feedLines([row({ orderAmbiguous: true })], { shorten: true })).toContain(
      "(order within the day unknown)",
    );
    expect(feedLines([row()], { shorten: true })).not.toContain("unknown)");
    expect(
      feedCsv([row({ orderAmbiguous: true })])
        .trim()
        .endsWith(",true"),
    ).toBe(true);
  });
});
