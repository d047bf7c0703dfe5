import { describe, expect, it } from "vitest";
import {
  FIELD_HASH_START,
  hashByte,
  MAX_BYTES,
  RepeatedFields,
} from "../../src/formats/read/repeated-fields.ts";

function hashOf(bytes: Buffer, start: number, end: number): number {
  let h = FIELD_HASH_START;
  for (let i = start; i < end; i++) h = hashByte(h, bytes[i]!);
  return h;
}

describe("one string per repeated field value", () => {
  it("gives every value's own text, whatever came before it", () => {
    const repeated = new RepeatedFields();
    const values = ["30000003-2-41", "Kővári Ügyvédi Iroda 0 Kft.", "HUF", "😀 Őrség", "a".repeat(MAX_BYTES)];
    for (let round = 0; round < 3; round++) {
      for (const value of values) {
        const bytes = Buffer.from(`;;${value};`);
        expect(repeated.text(bytes, 2, bytes.length - 1, hashOf(bytes, 2, bytes.length - 1))).toBe(value);
      }
    }
  });

  it("tells apart values whose hashes are equal", () => {
    const repeated = new RepeatedFields();
    // Every value given one hash: each must still come back as itself, never as the slot's last one.
    const values = [
      "11773016-00000000-05000005",
      "11773016-00000000-05000012",
      "1177301",
      "11773016-00000000-0500001",
    ];
    for (let round = 0; round < 2; round++) {
      for (const value of values) {
        const bytes = Buffer.from(value);
        expect(repeated.text(bytes, 0, bytes.length, 42)).toBe(value);
      }
    }
  });

  it("starts again when full of values that repeat, and stops keeping values that do not", () => {
    const text = (repeated: RepeatedFields, value: string) => {
      const bytes = Buffer.from(value);
      return repeated.text(bytes, 0, bytes.length, hashOf(bytes, 0, bytes.length));
    };
    // A payee a row (its name and account) and one currency: two values made for every one found.
    const distinct = new RepeatedFields();
    for (let i = 0; i < 40_000; i++) {
      expect(text(distinct, `Payee ${i}`)).toBe(`Payee ${i}`);
      expect(text(distinct, `11773016-${i}`)).toBe(`11773016-${i}`);
      expect(text(distinct, "HUF")).toBe("HUF");
      if (i === 10_000) expect(distinct.keeps).toBe(true);
    }
    expect(distinct.keeps).toBe(false);
    expect(text(distinct, "Payee 7")).toBe("Payee 7");
    // Each value seen twice before the next: as many found as made, so it starts again.
    const twice = new RepeatedFields();
    for (let i = 0; i < 40_000; i++) {
      expect(text(twice, `Payee ${i}`)).toBe(`Payee ${i}`);
      expect(text(twice, `Payee ${i}`)).toBe(`Payee ${i}`);
    }
    expect(twice.keeps).toBe(true);
  });

  it("starts again when full, and still gives every value's text", () => {
    const repeated = new RepeatedFields();
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 40_000; i++) {
        const bytes = Buffer.from(`${i}-${round % 2}`);
        expect(repeated.text(bytes, 0, bytes.length, hashOf(bytes, 0, bytes.length))).toBe(
          `${i}-${round % 2}`,
        );
      }
    }
  });
});
