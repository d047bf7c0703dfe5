import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { CsvWriter, EXCEL_HU } from "../../src/formats/write/csv-writer.ts";
import { safeCell } from "../../src/formats/write/safe-cell.ts";

describe("safeCell", () => {
  it.each([
    ['=HYPERLINK("http://x","y")', '\'=HYPERLINK("http://x","y")'],
    ["+36 1 234 5678", "'+36 1 234 5678"],
    ["-2+3", "'-2+3"],
    ["@SUM(A1:A9)", "'@SUM(A1:A9)"],
    ["\t=1+1", "'\t=1+1"],
    ["\r=1+1", "'\r=1+1"],
    ["-1 250", "'-1 250"],
  ])("neutralises %j", (text, expected) => {
    expect(safeCell(text)).toBe(expected);
  });

  it.each(["-1250.50", "-1250", "+12", "-0,5", "Kővári Ügyvédi Iroda", "INV=1", "a-b", "", "12345676-2-41"])(
    "keeps %j",
    (text) => {
      expect(safeCell(text)).toBe(text);
    },
  );
});

async function written(rows: unknown[][], options = {}): Promise<string> {
  const out = new PassThrough();
  const parts: Buffer[] = [];
  out.on("data", (b: Buffer) => parts.push(b));
  const csv = new CsvWriter(out, options);
  for (const row of rows) await csv.row(row as never);
  await csv.flush();
  out.end();
  return Buffer.concat(parts).toString("utf8");
}

describe("CsvWriter", () => {
  it("quotes only what needs it and neutralises text, not numbers", async () => {
    const text = await written([
      ["a,b", 'say "hi"', "line\nbreak", "=1+1", -12.5, { decimal: "-1250.50" }, null],
    ]);
    expect(text).toBe('"a,b","say ""hi""","line\nbreak",\'=1+1,-12.5,-1250.50,\n');
  });

  it("writes Excel's Hungarian flavour: BOM, semicolons, decimal comma", async () => {
    const text = await written(
      [
        ["név", "összeg"],
        ["Kft; Bt", { decimal: "1250000.50" }],
        ["@x", { decimal: "not a number" }],
      ],
      EXCEL_HU,
    );
    expect(text).toBe('\uFEFFnév;összeg\r\n"Kft; Bt";1250000,50\r\n\'@x;not a number\r\n');
  });

  it("writes several rows at once as row() would", async () => {
    const out = new PassThrough();
    const parts: Buffer[] = [];
    out.on("data", (b: Buffer) => parts.push(b));
    const csv = new CsvWriter(out, { delimiter: ";" });
    await csv.rows([
      ["a;b", 1],
      ["=x", null],
    ]);
    await csv.flush();
    expect(Buffer.concat(parts).toString("utf8")).toBe('"a;b";1\n\'=x;\n');
  });

  it("waits for a full destination to drain", async () => {
    const out = new PassThrough({ highWaterMark: 16 });
    const csv = new CsvWriter(out);
    let done = false;
    const writing = (async () => {
      for (let i = 0; i < 5000; i++) await csv.row(["x".repeat(40), i]);
      await csv.flush();
      done = true;
    })();
    await new Promise((r) => setTimeout(r, 20));
    expect(done).toBe(false);
    let lines = 0;
    out.on("data", (b: Buffer) => {
      lines += b.toString().split("\n").length - 1;
    });
    await writing;
    expect(lines).toBe(5000);
  });
});
