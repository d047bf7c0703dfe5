import { describe, expect, it } from "vitest";
import { KeptTexts } from "../../src/formats/write/kept-texts.ts";

describe("texts kept for an output", () => {
  it("gives what the function gives, for texts met again, long ones and past its bound", () => {
    let calls = 0;
    const kept = new KeptTexts((text) => {
      calls++;
      return `<${text}>`;
    });
    const long = "x".repeat(600);
    for (let round = 0; round < 3; round++) {
      expect(kept.of("Kővári Kft.")).toBe("<Kővári Kft.>");
      expect(kept.of("")).toBe("<>");
      expect(kept.of(long)).toBe(`<${long}>`);
    }
    // Kept: made once each; the long text each time.
    expect(calls).toBe(2 + 3);
    for (let i = 0; i < 30_000; i++) expect(kept.of(String(i))).toBe(`<${i}>`);
    expect(kept.of("Kővári Kft.")).toBe("<Kővári Kft.>");
  });

  it("starts again when its texts repeat, and keeps none once they prove not to", () => {
    let calls = 0;
    const make = (text: string) => {
      calls++;
      return text.toUpperCase();
    };
    // A payee a row (its name and account) beside one verdict word: two texts made for every one found.
    const distinct = new KeptTexts(make);
    for (let i = 0; i < 30_000; i++) {
      expect(distinct.of(`payee ${i}`)).toBe(`PAYEE ${i}`);
      expect(distinct.of(`account ${i}`)).toBe(`ACCOUNT ${i}`);
      expect(distinct.of("ok")).toBe("OK");
    }
    expect(distinct.keeps).toBe(false);
    calls = 0;
    distinct.of("ok");
    distinct.of("ok");
    expect(calls).toBe(2);
    // Every text met twice in a row: as many found as made, so it starts again and still keeps.
    const twice = new KeptTexts(make);
    for (let i = 0; i < 30_000; i++) {
      twice.of(`payee ${i}`);
      twice.of(`payee ${i}`);
    }
    expect(twice.keeps).toBe(true);
    calls = 0;
    twice.of("payee 29999");
    expect(calls).toBe(0);
  });
});
