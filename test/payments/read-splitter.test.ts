import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { UndecodableLineError } from "../../src/formats/read/encoding.ts";
import { RecordSplitter, recordEnd, UnclosedQuoteError } from "../../src/formats/read/record-splitter.ts";

/** Every record of `text` fed in pieces of `size` characters. */
function split(text: string, size: number, delimiter = ";", linesBefore = 1) {
  const splitter = new RecordSplitter(delimiter, linesBefore, { encoding: "windows-1250" });
  const out = [];
  for (let at = 0; at < text.length; at += size) out.push(...splitter.push(text.slice(at, at + size)));
  out.push(...splitter.push("", true));
  return out;
}

const MIXED = [
  "11773016-1;1 250 000;Kővári Ügyvédi Iroda",
  '11773016-2;"1.250,50";"Kovács; Társa"',
  "",
  '11773016-3;12;"two\r\nlines ""quoted"""',
  ";;",
  '11773016-4; 5 ;  "padded"  ',
  '11773016-5;7;a 5" disk',
  "11773016-6;8;last without a line end",
].join("\r\n");

describe("records of decoded text", () => {
  it("gives the fields csv-parse gives, whatever size the pieces come in", () => {
    const expected = (
      parse(MIXED, { delimiter: ";", relax_column_count: true, relax_quotes: true, trim: true }) as string[][]
    ).filter((fields) => fields.some((field) => field !== ""));
    for (const size of [1, 2, 3, 7, 16, 64, MIXED.length]) {
      expect(split(MIXED, size).map((r) => r.fields)).toEqual(expected);
    }
  });

  it("numbers records by the line they start on, counting blank lines and breaks inside quotes", () => {
    expect(split(MIXED, 5).map((r) => r.line)).toEqual([2, 3, 5, 8, 9, 10]);
  });

  it("finds where a record ends, or says it needs more text", () => {
    expect(recordEnd('a;"b\nc";d\ne', 0, ";")).toBe(9);
    expect(recordEnd('a;"b""', 0, ";")).toBe(-1);
    expect(recordEnd('a;x"y;z\nq', 0, ";")).toBe(7);
  });

  it("refuses a quote that never closes with the line it opened on", () => {
    expect(() => split('a;1\nb;"open\nc;2\n', 4)).toThrow(UnclosedQuoteError);
    expect(() => split('a;1\nb;"open\nc;2\n', 4)).toThrow(/record of line 3 never closes/);
  });

  it("refuses text a wrong 8-bit encoding left, naming its line", () => {
    let error: unknown;
    try {
      split("a;1\nb;\u008a\n", 3);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UndecodableLineError);
    expect((error as UndecodableLineError).line).toBe(3);
    expect(() => split("a;1\nb;2\nc;\ud800x\n", 4)).toThrow(/line 4 cannot be read as windows-1250/);
    expect(split("a;\ud83d\ude00\n", 2).map((r) => r.fields)).toEqual([["a", "\ud83d\ude00"]]);
  });
});

describe("records that may hold odd spaces", () => {
  it("says so for every record of a piece holding one, and reads their fields with plain spaces", async () => {
    const { readRow } = await import("../../src/formats/read/rows.ts");
    const plan = {
      layout: { index: { bank_account: 0, name: 1 }, columns: { bank_account: "a", name: "n" }, ignored: [] },
      width: 2,
      currency: "HUF",
    } as never;
    const spaced = new RecordSplitter(";", 1, false).push(
      "11773016-1;Kővári\u00a0Kft.\n11773016-2;Bükki\u202fZrt.\n",
    );
    expect(spaced.map((r) => r.oddSpaces)).toEqual([true, true]);
    expect(
      spaced.map((r) => (readRow(r.fields, r.line, plan, r.oddSpaces) as { row: { name: string } }).row.name),
    ).toEqual(["Kővári Kft.", "Bükki Zrt."]);
    const plain = new RecordSplitter(";", 1, false).push("11773016-1; Kővári Kft. \n");
    expect(plain.map((r) => r.oddSpaces)).toEqual([false]);
    expect(
      (readRow(plain[0]!.fields, plain[0]!.line, plan, false) as { row: { name: string } }).row.name,
    ).toBe("Kővári Kft.");
  });
});
