import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  groupDigits,
  ibanIsValid,
  ibanOf,
  parseAccount,
  partCheckDigit,
  partIsValid,
  searchValueOf,
} from "../../src/payments/accounts.ts";

/** Digits completed with their check digit, so the part is valid. */
const part = (length: number) =>
  fc
    .string({ unit: fc.constantFrom(..."0123456789"), minLength: length - 1, maxLength: length - 1 })
    .map((d) => d + String(partCheckDigit(d)));

describe("check digits of a domestic account", () => {
  it("weights 9,7,3,1 from the left over each part", () => {
    // 1*9+1*7+7*3+7*1+3*9+0*7+1*3+6*1 = 80
    expect(partIsValid("11773016")).toBe(true);
    expect(partIsValid("11773017")).toBe(false);
    // The 16-digit account part is one part: its check digit covers all fifteen digits before it.
    expect(partIsValid("1111101800000000")).toBe(true);
    expect(partIsValid("0000000100000000")).toBe(false);
    expect(partCheckDigit("1177301")).toBe(6);
  });

  it("accepts every valid number and catches every single wrong digit", () => {
    fc.assert(
      fc.property(
        part(8),
        fc.oneof(part(8), part(16)),
        fc.nat(),
        fc.integer({ min: 1, max: 9 }),
        (a, b, at, delta) => {
          const digits = a + b;
          const parsed = parseAccount(digits);
          expect(parsed.ok).toBe(true);
          const i = at % digits.length;
          const wrong = digits.slice(0, i) + String((Number(digits[i]) + delta) % 10) + digits.slice(i + 1);
          const bad = parseAccount(wrong);
          expect(bad.ok).toBe(false);
          if (!bad.ok) expect(bad.problem).toMatch(i < 8 ? /first group/ : /account part/);
        },
      ),
    );
  });
});

describe("forms of one account", () => {
  it("brings 16 and 24 digits, hyphens, blanks and the IBAN to one canonical form", () => {
    const forms = [
      "11773016-11111018",
      "1177301611111018",
      "11773016-11111018-00000000",
      "117730161111101800000000",
      " 11773016 11111018 00000000 ",
      "HU42117730161111101800000000",
      "hu42 1177 3016 1111 1018 0000 0000",
    ];
    for (const form of forms) {
      expect(parseAccount(form)).toMatchObject({
        ok: true,
        account: "11773016-11111018-00000000",
        iban: "HU42117730161111101800000000",
      });
    }
    expect(searchValueOf("11773016-11111018-00000000")).toBe("11773016-11111018");
  });

  it("converts IBAN and domestic numbers both ways (ISO 13616 mod 97)", () => {
    fc.assert(
      fc.property(part(8), part(16), (a, b) => {
        const iban = ibanOf(a + b);
        expect(ibanIsValid(iban)).toBe(true);
        expect(parseAccount(iban)).toMatchObject({ ok: true, iban, account: groupDigits(a + b) });
        // Swapping two different neighbouring digits breaks the IBAN check.
        const i = 6;
        if (iban[i] !== iban[i + 1]) {
          const swapped = iban.slice(0, i) + iban[i + 1] + iban[i] + iban.slice(i + 2);
          expect(ibanIsValid(swapped)).toBe(false);
        }
      }),
    );
  });

  it("names what is wrong with other input", () => {
    const problem = (raw: string) => {
      const parsed = parseAccount(raw);
      return parsed.ok ? "" : parsed.problem;
    };
    expect(problem("HU43117730161111101800000000")).toContain("wrong check digits (mod 97)");
    expect(problem("DE89370400440532013000")).toContain("foreign IBAN");
    expect(problem("HU4211773016")).toContain("HU, two check digits and 24 digits");
    expect(problem("1177301611111")).toContain("must be 16 or 24 digits");
    expect(problem("1177-3016-1111-1018")).toContain("must be 16 or 24 digits");
    expect(problem("11773016-11111019")).toContain("account part");
  });
});
