import { parse } from "csv-parse/sync";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { plainQuotedFields } from "../../src/formats/read/quoted-fields.ts";

/** The fields csv-parse gives for one record, read as the record splitter asks it to. */
function csvParse(record: string, delimiter: string): string[] {
  return (
    parse(record, { delimiter, relax_column_count: true, relax_quotes: true, trim: true }) as string[][]
  ).flat();
}

/** Pieces records are made of: letters, delimiters, quotes, blanks, line breaks, surrogates. */
const PIECES = [
  "a",
  "ő",
  ";",
  ",",
  '"',
  '""',
  " ",
  "\t",
  "\u00a0",
  "\u2009",
  "=",
  "\r",
  "\n",
  "😀",
  "\ud800",
];

describe("records with quotes in the plainest shape", () => {
  it("reads a quoted reference and amount to what csv-parse gives", () => {
    const record =
      '30000601-2-41;SZÉCHENYI 60 KFT.;11773016-00000000-05000607;"1.234,50";HUF;"=HYPERLINK(""http://x.example/60"",""számla"")"';
    expect(plainQuotedFields(record, ";")).toEqual(csvParse(record, ";"));
    expect(plainQuotedFields('"a;b";;""', ";")).toEqual(["a;b", "", ""]);
  });

  it("leaves every other shape to csv-parse", () => {
    for (const record of [
      ' "padded";x',
      '"a" ;x',
      'a 5" disk;x',
      '"two\nlines";x',
      '"open;x',
      '"a"b;x',
      'x ;"y"',
      '"\ud800";x',
      "",
    ])
      expect(plainQuotedFields(record, ";")).toBeUndefined();
    expect(plainQuotedFields('"a"\t"b"', "\t")).toBeUndefined();
  });

  it("gives csv-parse's fields whenever it reads a record", () => {
    const record = fc
      .array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 12 })
      .map((p) => p.join(""));
    const field = fc
      .tuple(fc.constantFrom("", "abc", "ő ű", 'say "hi"', "a;b", "x,y", " pad", "pad "), fc.boolean())
      .map(([text, quoted]) => (quoted ? `"${text.replaceAll('"', '""')}"` : text));
    const fields = fc.array(field, { minLength: 1, maxLength: 6 }).map((f) => f.join(";"));
    fc.assert(
      fc.property(fc.oneof(record, fields), fc.constantFrom(";", ","), (text, delimiter) => {
        const fast = plainQuotedFields(text, delimiter);
        if (fast !== undefined) expect(fast).toEqual(csvParse(text, delimiter));
      }),
      { numRuns: 20_000, seed: 27 },
    );
  });
});
