import { describe, expect, it } from "vitest";
import { BusinessDirectory } from "../../src/emulator/businesses.ts";
import { taxIdProblem, withTaxCheckDigit } from "../../src/emulator/check-digits.ts";
import { activationDate, lastLoadedDay } from "../../src/emulator/clock.ts";
import { foldText, NameIndex, nameMatches } from "../../src/emulator/name-search.ts";
import { Permutation } from "../../src/emulator/random.ts";

describe("tax base number check digit", () => {
  it("weights the first seven digits 9,7,3,1,9,7,3", () => {
    // 1*9 + 2*7 + 3*3 + 4*1 + 5*9 + 6*7 + 7*3 = 144; (10 - 4) mod 10 = 6
    expect(withTaxCheckDigit("1234567")).toBe("12345676");
    expect(taxIdProblem("12345676")).toBeNull();
    expect(taxIdProblem("12345670")).toBe("check-digit");
    expect(taxIdProblem("1234567")).toBe("format");
  });

  it("gives every generated business a valid, decodable tax id", () => {
    const directory = new BusinessDirectory(9, 3000);
    for (let i = 0; i < 3000; i += 7) {
      const b = directory.get(i);
      expect(taxIdProblem(b.tax_id)).toBeNull();
      expect(b.tax_number.startsWith(`${b.tax_id}-`)).toBe(true);
      expect(directory.byTaxId(b.tax_id)?.index).toBe(i);
      expect(directory.byRegistrationNumber(b.registration_number).map((r) => r.index)).toContain(i);
    }
  });
});

describe("seeded permutation", () => {
  it("is a bijection with an inverse", () => {
    const p = new Permutation(1000, 42, 1);
    const seen = new Set<number>();
    for (let x = 0; x < 1000; x++) {
      const y = p.forward(x);
      seen.add(y);
      expect(p.backward(y)).toBe(x);
    }
    expect(seen.size).toBe(1000);
  });
});

describe("name matching", () => {
  it("folds accents, case and punctuation", () => {
    expect(foldText("Szabó Józsefné e.v.")).toBe("szabo jozsefne e v");
    expect(foldText("ŐRSÉG-Űrhajó")).toBe("orseg urhajo");
  });

  it("matches word beginnings, all words, and runs typed without spaces", () => {
    const words = foldText("Zöld Jövő Egyesület").split(" ");
    expect(nameMatches(words, ["jov"])).toBe(true);
    expect(nameMatches(words, ["ovo"])).toBe(false);
    expect(nameMatches(words, ["zold", "egy"])).toBe(true);
    expect(nameMatches(words, ["zold", "kft"])).toBe(false);
    expect(nameMatches(words, ["zoldjovo"])).toBe(true);
    const index = new NameIndex();
    index.add(["Zöld Jövő Egyesület", "ZJE"]);
    index.add(["Kovács és Társa Építőipari Kft."]);
    expect(index.search("jövő", 50)).toEqual([0]);
    expect(index.search("ZJE", 50)).toEqual([0]);
    expect(index.search("epito kovacs", 50)).toEqual([1]);
  });
});

describe("data load", () => {
  it("loads day D at 06:00 Budapest time on D+1 and activates items at the next load", () => {
    expect(lastLoadedDay(new Date("2024-03-11T04:59:59Z"))).toBe("2024-03-09"); // 05:59 CET
    expect(lastLoadedDay(new Date("2024-03-11T05:00:00Z"))).toBe("2024-03-10"); // 06:00 CET
    expect(lastLoadedDay(new Date("2024-07-11T04:00:00Z"))).toBe("2024-07-10"); // 06:00 CEST
    expect(activationDate(new Date("2024-03-11T04:00:00Z"))).toBe("2024-03-11");
    expect(activationDate(new Date("2024-03-11T05:00:00Z"))).toBe("2024-03-12");
  });
});
