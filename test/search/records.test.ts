import { describe, expect, it } from "vitest";
import type { BusinessRecord } from "../../src/api/search-schemas.ts";
import { statusInWords } from "../../src/changes/status-words.ts";
import { groupByTaxBase, mergeRecords } from "../../src/parse/business-records.ts";
import { formatRecordTable, typeInWords } from "../../src/search/format.ts";
import { taxIdForRegistrationNumber } from "../../src/search/resolve.ts";

const company: BusinessRecord = {
  type: "companies",
  status_code: 0,
  full_name: "Példa Kereskedelmi Korlátolt Felelősségű Társaság",
  short_name: "Példa Kft.",
  address: "1051 Budapest, Fő utca 1.",
  tax_number: "10000001-2-41",
  registration_number: "01-09-123456",
  founded_at: "2001-05-04",
};
const proprietor: BusinessRecord = {
  type: "self_employed",
  status_code: 1,
  full_name: "Példa Péter",
  address: "6720 Szeged, Kárász utca 3.",
  tax_number: "10000001-1-06",
  registration_number: "51234567",
  founded_at: "2015-01-10",
};

describe("records per tax base number", () => {
  it("groups by the first eight digits of the tax number", () => {
    const { groups, unkeyed } = groupByTaxBase([company, proprietor, { tax_number: "n/a-xx" }]);
    expect([...groups.keys()]).toEqual(["10000001"]);
    expect(groups.get("10000001")).toHaveLength(2);
    expect(unkeyed).toHaveLength(1);
  });

  it("keeps both businesses of a converted number, the newer first, and replaces a refreshed one", () => {
    const merged = mergeRecords([company], [proprietor]);
    expect(merged.map((r) => r.type)).toEqual(["self_employed", "companies"]);
    const renamed = { ...company, full_name: "Új Név Kft." };
    const again = mergeRecords(merged, [renamed]);
    expect(again).toHaveLength(2);
    expect(again[1]?.full_name).toBe("Új Név Kft.");
  });

  it("puts the operating business first when founding dates tie", () => {
    const ceased = { ...proprietor, status_code: 0, registration_number: "1" };
    expect(mergeRecords([], [ceased, proprietor])[0]).toBe(proprietor);
  });
});

describe("resolving a registration number", () => {
  it("gives the shared base number of both hits", () => {
    expect(taxIdForRegistrationNumber("01-09-123456", [company, proprietor])).toEqual({
      ok: true,
      taxId: "10000001",
    });
  });

  it("explains no hit, budget organisations and ambiguous hits", () => {
    const none = taxIdForRegistrationNumber("01-09-999999", []);
    expect(none.ok === false && none.problem).toMatch(/01-09-999999 was not found/);
    const budget = taxIdForRegistrationNumber("12345", [
      { type: "budget_orgs", tax_number: "15000001-2-41" },
    ]);
    expect(budget.ok === false && budget.problem).toMatch(/budget organisation/);
    const two = taxIdForRegistrationNumber("12345678", [
      company,
      { ...proprietor, tax_number: "10000018-1-06" },
    ]);
    expect(two.ok === false && two.problem).toMatch(/several businesses/);
  });
});

describe("table", () => {
  it("words status and type, and aligns columns", () => {
    expect(statusInWords(2)).toBe("suspended");
    expect(statusInWords(7)).toBe("code 7");
    expect(typeInWords("civil_orgs")).toBe("civil organisation");
    const lines = formatRecordTable([company, proprietor]).split("\n");
    expect(lines[0]).toMatch(/^TYPE\s+STATUS\s+NAME\s+SEAT\s+TAX NUMBER\s+REG\. NUMBER$/);
    expect(lines[1]).toContain("company          ceased");
    expect(lines[2]).toContain("sole proprietor  operating");
    // Long names are shortened so a row stays readable.
    expect(lines[1]).toContain("Példa Kereskedelmi Korlátolt Felelősségű Társaság");
    const long = formatRecordTable([{ ...company, full_name: "x".repeat(80) }]);
    expect(long).toContain(`${"x".repeat(59)}…`);
    expect(lines[1]!.indexOf("10000001-2-41")).toBe(lines[0]!.indexOf("TAX NUMBER"));
  });

  it("shows control characters of registry text escaped, so a record cannot recolour the screen or hide text", () => {
    const hostile = formatRecordTable([
      { ...company, full_name: "Evil\u001b[2J Kft.\u202e", address: "a\nb" },
    ]);
    expect(hostile.split("\n")).toHaveLength(2);
    expect(hostile).toContain("Evil\\e[2J Kft.\\u{202e}");
    expect(hostile).not.toContain("\u001b");
  });
});
