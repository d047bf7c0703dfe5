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
});
