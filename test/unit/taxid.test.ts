import { describe, expect, it } from "vitest";
import { checkDigit, describeTaxIdProblem, isValidTaxId, taxBaseOf } from "../../src/taxid.ts";

describe("tax base numbers", () => {
  it("computes the check digit with weights 9,7,3,1,9,7,3", () => {
    // 1*9 + 2*7 + 3*3 + 4*1 + 5*9 + 6*7 + 7*3 = 144 → (10 - 4) % 10 = 6
    expect(checkDigit("1234567")).toBe(6);
    expect(isValidTaxId("12345676")).toBe(true);
    expect(isValidTaxId("12345677")).toBe(false);
  });

  it("names what is wrong", () => {
    expect(describeTaxIdProblem("1234")).toMatch(/8 digits/);
    expect(describeTaxIdProblem("12345677")).toMatch(/check digit \(expected 6\)/);
    expect(describeTaxIdProblem("12345676")).toBeUndefined();
  });

  it("takes the base number from a tax number", () => {
    expect(taxBaseOf("12345676-2-41")).toBe("12345676");
    expect(taxBaseOf("garbage")).toBeUndefined();
  });
});
