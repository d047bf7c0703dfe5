/** Attribution of file entries to changes, and the order values chain into (pure). */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { attribute, type FileChange } from "../../src/parse/attribute.ts";
import { chainOrder, valueKey } from "../../src/parse/day-chain.ts";
import type { HeadingValue } from "../../src/parse/types.ts";

const change = (id: number, taxId: string, chapter: string, headings: string[]): FileChange => ({
  id,
  taxId,
  chapter,
  headings,
});
const entry = (
  heading: string,
  oldValue: unknown,
  newValue: unknown,
  taxId: string | null = null,
  chapter: string | null = null,
): HeadingValue => ({ heading, oldValue, newValue, taxId, chapter });

describe("attributing a file's entries", () => {
  it("gives each business of a shared file only its own entries, and only headings its change lists", () => {
    const result = attribute(
      [
        entry("long_name", "Alfa", "Alfa Új", "11111111"),
        entry("long_name", "Béta", "Béta Új", "22222222"),
        entry("address", "X", "Y", "22222222"),
        entry("long_name", "Other", "Other 2", "99999999"),
      ],
      [change(1, "11111111", "2", ["long_name"]), change(2, "22222222", "2", ["long_name"])],
    );
    expect(result).toEqual({
      values: [
        {
          changeId: 1,
          heading: "long_name",
          oldValue: "Alfa",
          oldUnknown: false,
          newValue: "Alfa Új",
          fileOrderAmbiguous: false,
        },
        {
          changeId: 2,
          heading: "long_name",
          oldValue: "Béta",
          oldUnknown: false,
          newValue: "Béta Új",
          fileOrderAmbiguous: false,
        },
      ],
      missing: [],
    });
  });

  it("gives an entry naming a chapter only to the change of that chapter", () => {
    const { values } = attribute(
      [entry("long_name", "A", "B", "11111111", "9"), entry("long_name", "B", "C", "11111111", "3")],
      [change(1, "11111111", "3", ["long_name"]), change(2, "11111111", "9", ["long_name"])],
    );
    expect(values.map((v) => [v.changeId, v.oldValue, v.newValue])).toEqual([
      [2, "A", "B"],
      [1, "B", "C"],
    ]);
  });

  it("applies entries naming no business only when the file's changes are of one business", () => {
    const nameless = [entry("long_name", "A", "B")];
    expect(attribute(nameless, [change(1, "11111111", "2", ["long_name"])]).values).toHaveLength(1);
    const shared = attribute(nameless, [
      change(1, "11111111", "2", ["long_name"]),
      change(2, "22222222", "2", ["long_name"]),
    ]);
    expect(shared.values).toEqual([]);
    expect(shared.missing.join("; ")).toBe(
      "1 entry names no business while the changes pointing at the file are of 2 businesses (11111111, 22222222); no entry gives 11111111 (chapter 2): long_name; 22222222 (chapter 2): long_name",
    );
  });

  it("says which changes got nothing for a heading they list", () => {
    const result = attribute(
      [entry("long_name", "A", "B", "11111111")],
      [change(1, "11111111", "2", ["long_name", "address"]), change(2, "22222222", "5", ["status"])],
    );
    expect(result.values).toHaveLength(1);
    expect(result.missing).toEqual([
      "no entry gives 11111111 (chapter 2): address; 22222222 (chapter 5): status",
    ]);
  });

  it("nets a heading given twice to its first old and last new value, whatever the file order", () => {
    const { values } = attribute(
      [entry("long_name", "B", "C"), entry("long_name", "A", "B")],
      [change(1, "11111111", "2", ["long_name"])],
    );
    expect(values).toEqual([
      {
        changeId: 1,
        heading: "long_name",
        oldValue: "A",
        oldUnknown: false,
        newValue: "C",
        fileOrderAmbiguous: false,
      },
    ]);
    const unchained = attribute(
      [entry("long_name", "A", "B"), entry("long_name", "X", "Y")],
      [change(1, "11111111", "2", ["long_name"])],
    );
    expect(unchained.values[0]).toMatchObject({ oldValue: "A", newValue: "Y", fileOrderAmbiguous: true });
  });
});

describe("the order values chain into", () => {
  it("orders a chain given in any order, and refuses to choose when no single order chains", () => {
    const s = (oldValue: unknown, newValue: unknown) => ({ oldValue, newValue });
    expect(chainOrder([s("B", "C"), s("A", "B"), s("C", "D")])).toEqual([2, 1, 3]);
    expect(chainOrder([s("A", "B"), s("X", "Y")])).toBeNull(); // no chain
    expect(chainOrder([s("A", "B"), s("B", "A")])).toBeNull(); // A→B→A or B→A→B
    expect(chainOrder([s("A", "B"), s("A", "C")])).toBeNull(); // a fork
    // The same step told twice is one event.
    expect(chainOrder([s("A", "B"), s("A", "B"), s("B", "C")])).toEqual([1, 1, 2]);
    // Values repeat, one order still chains: A→B, B→A, A→C.
    expect(chainOrder([s("A", "C"), s("B", "A"), s("A", "B")])).toEqual([3, 2, 1]);
    // Key order inside objects does not matter.
    expect(chainOrder([s({ a: 1, b: 2 }, "Z"), s("Y", { b: 2, a: 1 })])).toEqual([2, 1]);
  });

  it("finds the one order of any shuffled chain of distinct events", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.oneof(fc.string(), fc.integer(), fc.constant(null)), {
          minLength: 2,
          maxLength: 15,
          selector: valueKey,
        }),
        fc.infiniteStream(fc.nat()),
        (states, randoms) => {
          const steps = states.slice(1).map((v, i) => ({ oldValue: states[i], newValue: v }));
          const shuffled = steps.map((step, i) => ({ step, i, r: randoms.next().value }));
          shuffled.sort((a, b) => a.r - b.r);
          const order = chainOrder(shuffled.map((s) => s.step));
          expect(order).toEqual(shuffled.map((s) => s.i + 1));
        },
      ),
      { seed: 24 },
    );
  });
});
