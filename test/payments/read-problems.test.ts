import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import iconv from "iconv-lite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UsageError } from "../../src/errors.ts";
import type { FileProblem, PaymentRow } from "../../src/formats/batch-row.ts";
import { MAX_PROBLEMS, openBatch, type ReadOptions } from "../../src/formats/read/batch-reader.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "regwatch-read-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

let counter = 0;
async function fileWith(content: string | Buffer): Promise<string> {
  const path = join(dir, `batch-${++counter}.csv`);
  await writeFile(path, content);
  return path;
}

async function problemsOf(
  content: string | Buffer,
  options: Partial<ReadOptions> = {},
): Promise<FileProblem[]> {
  const opened = await openBatch(await fileWith(content), { currency: "HUF", ...options });
  if (opened.ok) throw new Error("expected the file to be refused");
  return opened.problems;
}

async function rowsOf(content: string | Buffer, options: Partial<ReadOptions> = {}): Promise<PaymentRow[]> {
  const opened = await openBatch(await fileWith(content), { currency: "HUF", ...options });
  if (!opened.ok) throw new Error(JSON.stringify(opened.problems));
  const rows: PaymentRow[] = [];
  for await (const chunk of opened.chunks(100)) rows.push(...chunk);
  expect(rows).toHaveLength(opened.rowCount);
  return rows;
}

const HEADER = "Számlaszám;Összeg;Pénznem;Név\n";
const ACCOUNT = "11773016-11111018";

describe("a file that cannot be read is refused, naming the line", () => {
  it("refuses an ambiguous amount, with the way to write it", async () => {
    const problems = await problemsOf(`${HEADER}${ACCOUNT};1.250;HUF;A\n${ACCOUNT};1.250;EUR;B\n`);
    expect(problems).toEqual([
      {
        line: 3,
        message: expect.stringMatching(
          /^amount "1.250" is ambiguous in EUR: it could be 1250 or 1.25; write 1250 or 1250.00 for the first, 1.25 for the second$/,
        ),
      },
    ]);
  });

  it("lists the columns found and the fields needed when no layout is known", async () => {
    const problems = await problemsOf("Partner;Bankszla;Érték\nA;1;2\n");
    expect(problems[0]).toEqual({
      line: 1,
      message: expect.stringContaining('found: "Partner", "Bankszla", "Érték"; needs a bank account column'),
    });
    expect(problems[0]?.message).toContain("--columns");
  });

  it("names a --columns header the file does not have", async () => {
    const problems = await problemsOf(`${HEADER}${ACCOUNT};1;HUF;A\n`, { columns: { tax_id: "Adóaz." } });
    expect(problems[0]).toEqual({
      line: 1,
      message: '--columns names "Adóaz." for tax_id, but no column has that header',
    });
  });

  it("shows a --columns typo on the header line, below the title lines", async () => {
    const problems = await problemsOf(`Átutalások;2026.11.24\n${HEADER}${ACCOUNT};1;HUF;A\n`, {
      columns: { reference: "Megjegyzés 2" },
    });
    expect(problems).toEqual([
      { line: 2, message: '--columns names "Megjegyzés 2" for reference, but no column has that header' },
      { line: 1, message: "no usable header in the first 4 lines" },
    ]);
  });

  it("refuses two columns for one field", async () => {
    const problems = await problemsOf(`Számlaszám;IBAN;Összeg\n${ACCOUNT};HU1;1\n`);
    expect(problems[0]?.message).toContain('columns "Számlaszám" and "IBAN" both give bank_account');
  });

  it("reads a short row's missing last cells as empty, and refuses a wider row unless its extra is empty", async () => {
    const problems = await problemsOf(
      `${HEADER}${ACCOUNT};1;HUF\n${ACCOUNT};1;HUF;A;\n${ACCOUNT};1;HUF;A;x\n`,
    );
    expect(problems).toEqual([{ line: 4, message: "5 field(s), but the header names 4 columns" }]);
  });

  it("refuses a row with no bank account", async () => {
    const problems = await problemsOf(`${HEADER}${ACCOUNT};1;HUF;A\n ;2;HUF;B\n`);
    expect(problems).toEqual([{ line: 3, message: 'no bank account (column "Számlaszám")' }]);
  });

  it("refuses an empty file and one with only a header", async () => {
    expect(await problemsOf("")).toEqual([{ line: 1, message: "the file is empty: expected a header row" }]);
    expect(await problemsOf("\n\n")).toEqual([
      { line: 1, message: "the file is empty: expected a header row" },
    ]);
    expect(await problemsOf(`title\n${HEADER}\n;;;\n`)).toEqual([
      { line: 2, message: "the file has no payment rows" },
    ]);
  });

  it("refuses a quote that never closes, naming where the parser stopped", async () => {
    const problems = await problemsOf(`${HEADER}${ACCOUNT};1;HUF;"A\n${ACCOUNT};1;HUF;B\n`);
    expect(problems).toHaveLength(1);
    expect(problems[0]?.message).toMatch(/cannot be read as CSV/);
    expect(problems[0]?.line).toBeGreaterThanOrEqual(2);
  });

  it("catches a line that is not UTF-8 far past the sample the encoding was detected from", async () => {
    const good = `${ACCOUNT};1 250 000;HUF;Kővári Ügyvédi Iroda\n`.repeat(3000);
    const bad = Buffer.concat([
      Buffer.from(`${HEADER}${good}`),
      iconv.encode(`${ACCOUNT};1;HUF;Kővári\n`, "latin2"),
    ]);
    expect(bad.length).toBeGreaterThan(64 * 1024);
    const problems = await problemsOf(bad);
    expect(problems).toEqual([
      { line: 3002, message: "line 3002 cannot be read as utf-8: give --encoding with the file's encoding" },
    ]);
  });

  it("refuses bytes the detected or given encoding does not define, naming the line", async () => {
    const bytes = Buffer.concat([
      iconv.encode(`${HEADER}${ACCOUNT};1;HUF;Šimon\n`, "windows-1250"),
      Buffer.from(`${ACCOUNT};1;HUF;A\x81B\n`, "latin1"),
    ]);
    expect(await problemsOf(bytes)).toEqual([
      { line: 3, message: "line 3 cannot be read as windows-1250: give --encoding with the file's encoding" },
    ]);
    const odd = Buffer.concat([
      iconv.encode(`${HEADER}${ACCOUNT};1;HUF;A\n`, "utf-16le", { addBOM: true }),
      Buffer.from([0x00, 0xd8, 0x41, 0x00, 0x0a, 0x00]),
    ]);
    expect(await problemsOf(odd)).toEqual([
      { line: 3, message: "line 3 cannot be read as utf-16le: give --encoding with the file's encoding" },
    ]);
  });

  it(`lists at most ${MAX_PROBLEMS} problems, then counts the rest`, async () => {
    const problems = await problemsOf(`${HEADER}${";1;HUF;A\n".repeat(70)}`);
    expect(problems).toHaveLength(MAX_PROBLEMS + 1);
    expect(problems[MAX_PROBLEMS]).toEqual({
      line: MAX_PROBLEMS + 2,
      message: "and 20 more problem(s) from this line on",
    });
  });

  it("refuses an unknown --encoding or --currency as a usage error", async () => {
    const path = await fileWith(`${HEADER}${ACCOUNT};1;HUF;A\n`);
    await expect(openBatch(path, { currency: "HUF", encoding: "klingon" })).rejects.toThrow(UsageError);
    await expect(openBatch(path, { currency: "FORINT" })).rejects.toThrow(
      /--currency: currency "FORINT" is not an ISO 4217 code/,
    );
  });
});

describe("rows as the verdicts get them", () => {
  it("numbers rows by the line they start on, past blank lines and line breaks inside quotes", async () => {
    const rows = await rowsOf(
      `${HEADER}\n${ACCOUNT};1;HUF;"two\nlines"\n\n${ACCOUNT};2;HUF;B\r\n${ACCOUNT};3;HUF;C`,
    );
    expect(rows.map((r) => [r.line, r.name])).toEqual([
      [3, "two\nlines"],
      [6, "B"],
      [7, "C"],
    ]);
  });

  it("leaves row problems of amounts and currencies to the verdicts", async () => {
    const rows = await rowsOf(
      `${HEADER}${ACCOUNT};EUR 100;HUF;A\n${ACCOUNT};100;XYZ;B\n${ACCOUNT};;HUF;C\n${ACCOUNT};100 Ft;huf;D\n${ACCOUNT};-5;Ft;E\n`,
    );
    expect(rows.map((r) => [r.amount, r.currency, r.amountProblem])).toEqual([
      [null, "HUF", 'amount "EUR 100" is in EUR, but the row\'s currency is HUF'],
      [null, "XYZ", 'currency "XYZ" is not an ISO 4217 code (such as HUF or EUR)'],
      [null, "HUF", "the amount is empty"],
      ["100", "HUF", null],
      ["-5", "HUF", null],
    ]);
  });

  it("takes the currency an amount header names, and refuses rows that contradict it", async () => {
    const rows = await rowsOf(
      `Számlaszám;Összeg (EUR);Deviza\n${ACCOUNT};1.250,50;\n${ACCOUNT};10;HUF\n${ACCOUNT};5 EUR;\n`,
    );
    expect(rows.map((r) => [r.amount, r.currency, r.amountProblem])).toEqual([
      ["1250.5", "EUR", null],
      [null, "HUF", "the row's currency is HUF, but the amount column is headed EUR"],
      ["5", "EUR", null],
    ]);
  });

  it("reads no-break spaces in names and amounts, and keeps a file without amounts", async () => {
    const rows = await rowsOf(`Számlaszám,Név\n${ACCOUNT},Kővári\u00a0Ügyvédi\u202fIroda\n`);
    expect(rows[0]).toEqual({
      line: 2,
      taxId: null,
      bankAccount: ACCOUNT,
      amount: null,
      amountRaw: null,
      amountProblem: null,
      currency: "HUF",
      reference: null,
      name: "Kővári Ügyvédi Iroda",
    });
  });

  it("reads a header with a trailing delimiter above rows with or without one", async () => {
    const rows = await rowsOf(`Számlaszám;;Összeg;\n${ACCOUNT};x;1\n${ACCOUNT};;2;\n`);
    expect(rows.map((r) => [r.line, r.amount])).toEqual([
      [2, "1"],
      [3, "2"],
    ]);
  });

  it("reads quoted fields with the delimiter inside, and a comma amount in a comma file", async () => {
    const rows = await rowsOf(`bank_account,amount,name\n"${ACCOUNT}","1,250.50","Kovács, Kft."\n`);
    expect(rows[0]).toMatchObject({ amount: "1250.5", name: "Kovács, Kft." });
  });
});

describe("an encoding shown only past the first 64 KiB", () => {
  it.each(["windows-1250", "iso-8859-2"])(
    "finds %s from the first line that is not plain ASCII",
    async (encoding) => {
      const ascii = `${ACCOUNT};1 000;HUF;Kovacs es Tarsa Kft.\n`.repeat(3000);
      const text = `${HEADER}${ascii}${ACCOUNT};2 000;HUF;Šimon Ľubomír és Kővári\n`;
      const path = await fileWith(iconv.encode(text, encoding));
      const opened = await openBatch(path, { currency: "HUF" });
      if (!opened.ok) throw new Error(JSON.stringify(opened.problems));
      expect(opened.layout.encoding).toBe(encoding);
      let last: PaymentRow | undefined;
      for await (const chunk of opened.chunks(1000)) last = chunk.at(-1);
      expect(last).toMatchObject({ line: 3002, name: "Šimon Ľubomír és Kővári" });
    },
  );
});

describe("line ends", () => {
  it.each([
    ["LF", "\n"],
    ["CRLF", "\r\n"],
    ["a lone CR (Excel's CSV for Macintosh)", "\r"],
  ])("reads lines ending in %s, title lines and all", async (_name, end) => {
    const text =
      ["Átutalások", "Számlaszám;Összeg;Név", `${ACCOUNT};1 000;Kővári`, "", `${ACCOUNT};2 000;Őrségi`].join(
        end,
      ) + end;
    for (const encoding of ["utf-8", "windows-1250", "utf-16le"]) {
      const rows = await rowsOf(iconv.encode(text, encoding, { addBOM: encoding === "utf-16le" }));
      expect(rows.map((r) => [r.line, r.amount, r.name])).toEqual([
        [3, "1000", "Kővári"],
        [5, "2000", "Őrségi"],
      ]);
    }
  });
});

describe("between validation and the check", () => {
  it("refuses to give rows of a file that changed after it was validated", async () => {
    const path = await fileWith(`${HEADER}${ACCOUNT};1;HUF;A\n`);
    const opened = await openBatch(path, { currency: "HUF" });
    expect(opened.ok).toBe(true);
    await writeFile(path, `${HEADER}${ACCOUNT};1;HUF;A\n${ACCOUNT};2;HUF;B\n`);
    if (!opened.ok) return;
    const drain = async () => {
      for await (const _ of opened.chunks(10)) {
        // reading is the test
      }
    };
    await expect(drain()).rejects.toThrow(/changed after it was read/);
  });
});
